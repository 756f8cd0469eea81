// Redis Cluster's key-to-slot rules and the replies that talk about slots, as pure functions (no
// I/O), so the cluster client's routing is unit-tested without servers.
//
//   KeySlot("dq:{acct_1}:jobs") == KeySlot("acct_1")   // only the hash tag is hashed
//   ParseRedirect("MOVED 3999 127.0.0.1:6381")          // {kMoved, 3999, "127.0.0.1", 6381}
//   RoutingKey({"XREADGROUP", "GROUP", "g", "c", "STREAMS", "q", ">"}) == "q"
//
// The rules are Redis's (cluster specification, "Keys distribution model"): CRC16-XMODEM of the
// key modulo 16384; when the key has a '{' followed later by a '}' with at least one byte
// between them, only the bytes between the first '{' and the first '}' after it are hashed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dq/common/redis_client.h"

namespace dq {

inline constexpr int kClusterSlots = 16384;

// CRC16-XMODEM (polynomial 0x1021, initial 0), as Redis Cluster uses it.
uint16_t Crc16(std::string_view data);
// The part of key that is hashed: its hash tag, or the whole key.
std::string_view HashTagOf(std::string_view key);
// The slot (0-16383) of key.
int KeySlot(std::string_view key);

// A cluster redirection: "MOVED <slot> <host>:<port>" (the slot lives there now; update the
// table) or "ASK <slot> <host>:<port>" (this one command goes there, after ASKING).
struct Redirect {
  enum class Kind { kMoved, kAsk };
  Kind kind = Kind::kMoved;
  int slot = 0;
  std::string host;
  int port = 0;
};
// The redirection an error reply carries, or nullopt for any other error. An IPv6 address is
// the text before the last ':'; an empty host (a node that does not know its own address) is
// left empty for the caller to replace with the address it asked.
std::optional<Redirect> ParseRedirect(std::string_view error);

// The error replies after which the command did not run and may be sent again after a pause:
// TRYAGAIN (a multi-key command while its slot migrates), CLUSTERDOWN, LOADING, MASTERDOWN,
// READONLY (the node is a replica now), NOREPLICAS (min-replicas-to-write not met), BUSY.
bool IsRetryableError(std::string_view error);
// Of those, the ones that say the node is no longer the master to talk to: READONLY,
// MASTERDOWN. The client asks the sentinels (or the cluster) again before the next command.
bool IsNotMasterError(std::string_view error);

// The key a command is routed by: its first key, as the command's key specification places it
// (argv[1] for most; after STREAMS for XREAD/XREADGROUP; argv[2] for XGROUP/XINFO subcommands;
// the first of numkeys for EVAL/EVALSHA). nullopt for a command without keys (PING, WAIT, ROLE,
// CLUSTER, INFO, SCRIPT, ...) or EVAL with no keys.
std::optional<std::string_view> RoutingKey(const std::vector<std::string>& argv);

// Every key of a command that has several (DEL, EXISTS, MGET, EVAL's keys, XREAD's streams...);
// one key for the rest; none for keyless commands.
std::vector<std::string_view> CommandKeys(const std::vector<std::string>& argv);

// One range of slots and the master that serves it, as CLUSTER SHARDS or CLUSTER SLOTS tell.
struct SlotRange {
  int first = 0;
  int last = 0;
  RedisAddress master;
};
// The slot ranges of a CLUSTER SHARDS reply (Redis 7): per shard, its "slots" pairs and the
// node whose role is master and whose health is not "fail"; its "endpoint" (or "ip" when the
// endpoint is empty or "?"). `asked` replaces an empty host. Errors: kInternal for a reply of
// another shape.
Result<std::vector<SlotRange>> ParseClusterShards(const RedisReply& reply,
                                                  const RedisAddress& asked);
// The same from CLUSTER SLOTS (Redis 3-6): [[first, last, [host, port, id], replicas...], ...].
Result<std::vector<SlotRange>> ParseClusterSlots(const RedisReply& reply,
                                                 const RedisAddress& asked);

}  // namespace dq
