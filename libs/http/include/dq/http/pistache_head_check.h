// Pistache's verdict on a request head, found with Pistache's own code before the connection's
// parser sees a byte of it. Pistache 0.0.5 answers a head its parser rejects by itself, in plain
// text, without a request id or rate-limit headers, and with 500 when a typed header's parser
// throws (`Date: notadate`, `Cache-Control: max-age=abc`, `Host: a:b:c`); nothing public lets
// a handler change that answer (Http::Handler::onInput catches and writes it). So the edge asks
// first (EdgeTransport::CheckHead) and answers a refusal itself, with the JSON contract.
#pragma once

#include <string_view>

#include "dq/common/status.h"
#include "dq/http/edge/request_head.h"

namespace dq::http {

// OK when Pistache's parser accepts `block` (a head the edge's ParseRequestHead accepted, which
// is `head`). Otherwise kInvalidRequest naming what Pistache would refuse: a method it does not
// know, or the header whose value its typed parser rejects (Date, Cache-Control, Host, Accept,
// Content-Type, Cookie, ...). Runs the parts of Pistache's parser that can refuse such a head,
// with Pistache's own code, on the bytes in place. `block` must be followed by a NUL (the
// contents of a std::string are), as Pistache's buffer is by more bytes: some of its type
// parsers read a value as a C string. Never throws.
Status PistacheHeadVerdict(std::string_view block, const edge::RequestHead& head);

}  // namespace dq::http
