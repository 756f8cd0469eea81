#!/usr/bin/env python3
"""No Redis script or pipeline spans hash slots (issue 35: Redis Cluster refuses them).

Reads every call of RedisClient::Eval, EvalDurable, Pipeline and PipelineDurable in the C++
sources, works out the key names each one passes from the key builders (AccountKey, JobKey,
JobPartKey, QuotaKey, IdempotencyKey, the global keys' constants, local variables and the
vectors they push), gives each distinct account expression a sample value, and computes every
key's slot with CRC16 and the hash-tag rules, as Redis Cluster does. A call whose keys fall in
two slots fails the test, and so does a call the lint cannot read (rewrite it plainly, or teach
the lint its key builder). The client refuses such a script at run time too (redis_client.cpp);
this finds it without running it.

  python3 tests/lint/redis_slots_test.py          (CTest: redis_slots_lint)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCES = [p for d in ("gateway/src", "notifier/src", "common/src", "dqctl", "libs")
           for p in sorted((ROOT / d).rglob("*.cpp"))]
CALL = re.compile(r"\.(Eval|EvalDurable|Pipeline|PipelineDurable)\(")


def crc16(data: bytes) -> int:
    crc = 0
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def key_slot(key: str) -> int:
    s = key.find("{")
    if s >= 0:
        e = key.find("}", s + 1)
        if e > s + 1:
            key = key[s + 1:e]
    return crc16(key.encode()) % 16384


assert crc16(b"123456789") == 0x31C3  # the specification's check value
assert key_slot("dq:{acct_1}:jobs") == key_slot("acct_1") == key_slot("x{acct_1}y")
assert key_slot("{}x") == crc16(b"{}x") % 16384  # an empty tag hashes the whole key


def balanced(text, start, open_ch="(", close_ch=")"):
    """The text between text[start] (an opening bracket) and its match."""
    depth, i, quote = 0, start, None
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
        i += 1
    raise ValueError("unbalanced")


def split_top(text):
    """Top-level comma-separated parts."""
    parts, depth, cur, quote, i = [], 0, "", None, 0
    while i < len(text):
        c = text[i]
        if quote:
            cur += c
            if c == "\\":
                cur += text[i + 1]
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
            cur += c
        elif c in "({[":
            depth += 1
            cur += c
        elif c in ")}]":
            depth -= 1
            cur += c
        elif c == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    if cur.strip():
        parts.append(cur.strip())
    return parts


def strip_comments(text):
    return re.sub(r"//[^\n]*", "", text)


def constants():
    out = {}
    for path in list((ROOT / "gateway/src").rglob("*.h")) + list((ROOT / "common").rglob("*.h")) + \
            SOURCES:
        for m in re.finditer(r'constexpr (?:const char\*|std::string_view|char) (k\w+)(?:\[\])? = "([^"]*)"',
                             path.read_text()):
            out[m.group(1)] = m.group(2)
    return out


CONSTS = constants()


class Unreadable(Exception):
    pass


class LoopKeys(Exception):
    """A key that stands for each of several keys (a loop over a brace list)."""

    def __init__(self, keys):
        super().__init__("loop")
        self.keys = keys


class Call:
    def __init__(self, path, line, body, call_at=None):
        self.path, self.line, self.body = path, line, body
        self.call_at = len(body) if call_at is None else call_at
        self.samples = {}

    def keys_of(self, expr):
        try:
            return [self.key(expr)]
        except LoopKeys as many:
            return many.keys

    def sample(self, expr):
        """A sample value per distinct expression (after aliases): same expression, same slot."""
        expr = self.resolve_alias(expr.strip())
        return self.samples.setdefault(expr, "v%d" % len(self.samples))

    def resolve_alias(self, expr):
        for _ in range(5):
            m = re.search(r"(?:const )?(?:std::string|auto)&? " + re.escape(expr) +
                          r" = ([^;]+);", self.body)
            if not m or not re.fullmatch(r"[\w.]+", m.group(1).strip()):
                break
            expr = m.group(1).strip()
        return expr

    def key(self, expr):
        """The key name expr builds, with sample values for its variable parts."""
        expr = expr.strip()
        for wrapper in ("std::string(", "std::move("):
            if expr.startswith(wrapper) and expr.endswith(")"):
                return self.key(expr[len(wrapper):-1])
        m = re.fullmatch(r"(\w+)\((.*)\)", expr, re.S)
        if m:
            fn, args = m.group(1), split_top(m.group(2))
            if fn in ("AccountKey", "JobKey", "JobPartKey", "IdempotencyKey"):
                return "dq:{%s}:%s" % (self.sample(args[0]), fn)
            if fn == "SendLeaseKey":  # common/src/delivery_log.cpp
                return "{dq:webhooks:retry}:sending:%s" % self.sample(args[0])
            if fn == "QuotaKey":
                return "dq:{%s}:quota" % self.sample(args[0] + ".account_id")
            if fn in ("EmailKey", "IpKey", "LookupKey", "SessionKey", "DeliveriesKey", "DeadKey",
                      "QueueKey"):
                prefix = {"DeliveriesKey": "dq:{%s}:deliveries", "DeadKey": "dq:{%s}:dead"}
                if fn in prefix:
                    return prefix[fn] % self.sample(args[0])
                return "%s:%s" % (fn, self.sample(",".join(args)))
            raise Unreadable("no key builder %s" % fn)
        if re.fullmatch(r"k\w+", expr) and expr in CONSTS:
            return CONSTS[expr]
        if expr.startswith('"'):
            return expr.strip('"')
        if re.fullmatch(r"\w+", expr):
            loop = re.search(r"for \((?:const )?(?:std::string|auto)&? " + expr + r" : ", self.body)
            if loop:
                return self.loop_key(expr, loop)
            m = re.search(r"(?:const )?(?:std::string|auto)&? " + expr + r" = ([^;]+);", self.body)
            if m:
                return self.key(m.group(1))
            m = re.search(r"std::string " + expr + r"\(([^;]+)\);", self.body)
            if m:
                return self.key(m.group(1))
        raise Unreadable("cannot read the key %r" % expr)

    def loop_key(self, name, loop):
        """A loop variable: one key per turn when the call is inside the loop; every key the loop
        visits (pushed into one vector) when the call comes after it."""
        paren = self.body.index("(", loop.start())
        head = balanced(self.body, paren)
        rng = head[head.index(" : ") + 3:].strip()
        brace = self.body.index("{", paren + len(head) + 1)
        end = brace + len(balanced(self.body, brace, "{", "}")) + 1
        inside = brace < self.call_at <= end
        if inside or not rng.startswith("{"):
            return "{%s}" % self.sample(name)
        raise LoopKeys([self.key(e) for e in split_top(balanced(rng, 0, "{", "}"))])

    def vector(self, name):
        """The elements a local vector is built from: its initializer and its push_backs."""
        m = re.search(r"std::vector<[^;=]*> " + name + r" = \{", self.body)
        items = []
        if m:
            items += split_top(balanced(self.body, m.end() - 1, "{", "}"))
        for p in re.finditer(r"\b" + name + r"\.(?:push_back|emplace_back)\(", self.body):
            items.append(balanced(self.body, p.end() - 1))
        if not m and not items:
            raise Unreadable("cannot read the vector %r" % name)
        return items

    def command_keys(self, cmd):
        """The keys of one pipelined command: a brace list or a vector's name."""
        cmd = cmd.strip()
        if cmd.startswith("std::move("):
            cmd = cmd[len("std::move("):-1]
        parts = split_top(cmd[1:-1]) if cmd.startswith("{") else self.vector(cmd)
        if not parts:
            return []
        name = parts[0].strip('"').upper()
        if name in ("DEL", "EXISTS", "UNLINK"):
            return [k for p in parts[1:] for k in self.keys_of(p)]
        return self.keys_of(parts[1]) if len(parts) > 1 else []

    def keys(self, kind, args):
        if kind.startswith("Eval"):
            keys = args[1]
            items = split_top(keys[1:-1]) if keys.startswith("{") else self.vector(keys)
            if keys.startswith("{") and len(items) == 1:
                # One key written out: one slot, whatever the key (a loop's variable after the
                # loop still stands for several, and is read).
                try:
                    return self.keys_of(items[0])
                except Unreadable:
                    return ["the one key"]
            out = []
            for item in items:
                # a candidate job's keys, pushed in a loop: the loop's variable gets one sample
                out += self.keys_of(item)
            return out
        cmds = args[0]
        items = split_top(cmds[1:-1]) if cmds.startswith("{") else self.vector(cmds)
        return [k for c in items for k in self.command_keys(c)]


def function_body(text, pos):
    """The text of the function that contains pos (from the previous top-level '}' on)."""
    start = max(0, text.rfind("\n}\n", 0, pos))
    return text[start:pos + 4000], pos - start


def check(kind, args_text, body):
    """The keys and slots of one call (made at the end of body, or inside it)."""
    at = body.find("redis_.")
    call = Call(None, 0, body, at + 1 if at >= 0 else None)
    keys = call.keys(kind, split_top(args_text))
    return keys, {key_slot(k) for k in keys}


# The lint finds what it is for: the two pipelines of issue 35 spanned slots.
_, _slots = check("Pipeline", '{{"HSET", AccountKey(account.id, "account"), "id", account.id}, '
                  '{"SADD", "dq:accounts", account.id}}', "")
assert len(_slots) == 2, _slots
_, _slots = check("Pipeline", 'cmds', 'std::vector<std::vector<std::string>> cmds;\n'
                  'for (const std::string& key : {EmailKey(email), IpKey(ip)}) {\n'
                  'cmds.push_back({"INCR", key});\n}')
assert len(_slots) == 2, _slots  # the pipeline after the loop carries both keys
_, _slots = check("Pipeline", '{{"INCR", key}, {"EXPIRE", key, window}}',
                  'for (const std::string& key : {EmailKey(email), IpKey(ip)}) {\n'
                  'auto r = redis_.Pipeline({{"INCR", key}, {"EXPIRE", key, window}});\n}')
assert len(_slots) == 1, _slots  # one pipeline a key, inside the loop
_, _slots = check("Eval", 'kWrite, {JobKey(a, job.id), QuotaKey(job)}, {}',
                  "const std::string& a = job.account_id;")
assert len(_slots) == 1, _slots
_, _slots = check("Eval", 'kWrite, {JobKey(a, job.id), QuotaKey(other)}, {}',
                  "const std::string& a = job.account_id;")
assert len(_slots) == 2, _slots
_, _slots = check("Eval", 'kCount, {attempt.counted[i]}, {}', "")
assert len(_slots) == 1, _slots  # one key: one slot, even when the lint cannot name it


def main():
    failures, checked = [], 0
    for path in SOURCES:
        text = strip_comments(path.read_text())
        for m in CALL.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            where = "%s:%d" % (path.relative_to(ROOT), line)
            try:
                args = split_top(balanced(text, m.end() - 1))
                body, at = function_body(text, m.start())
                call = Call(path, line, body, at)
                keys = call.keys(m.group(1), args)
            except (Unreadable, LoopKeys, ValueError, IndexError) as e:
                failures.append("%s: %s: %s" % (where, m.group(1), e))
                continue
            checked += 1
            slots = {key_slot(k) for k in keys}
            if len(slots) > 1:
                failures.append("%s: %s spans slots %s: %s" % (where, m.group(1), sorted(slots),
                                                               ", ".join(keys)))
    if checked < 25:  # the sources have more: the lint stopped finding them
        failures.append("only %d calls found" % checked)
    for f in failures:
        print("FAIL", f)
    print("%d script and pipeline calls checked, %d failures" % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
