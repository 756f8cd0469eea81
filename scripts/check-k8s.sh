#!/usr/bin/env bash
# scripts/check-k8s.sh: offline checks of the Kubernetes manifests and the compose file.
#
#   1. render every overlay with `kubectl kustomize` (no cluster needed);
#   2. yamllint (deploy/yamllint.yaml) on the sources, the rendered output and docker-compose.yml;
#   3. schema: every rendered object through the npm package kubernetes-models (JSON schemas of
#      the Kubernetes API: missing required fields, wrong types, bad enums; unknown fields are
#      NOT caught), installed once into a cache directory;
#   4. project policy: every container non-root, read-only root fs, no privilege escalation, all
#      capabilities dropped, seccomp RuntimeDefault, requests and limits, liveness and readiness
#      probes; the validator probed over gRPC; every DQ_* name a real setting; the gateway as
#      two Deployments (dq-gateway DQ_ROLE=api, dq-worker DQ_ROLE=worker with no Service), and
#      in prod the dq-worker HPA on the job queue's external metrics; the lock-down:
#      NetworkPolicies (validator only from gateways/workers, Redis only from dq pods, notifier
#      egress to public 443 + DNS + Redis), gateway probes and /metrics on the ops port, every
#      service on its own Redis ACL user (deploy/redis/users.acl: none with +@all or dangerous
#      commands);
#   5. docker-compose.yml with Debian's docker-compose v1 (`config -q`), when it is installed.
#
# Needs kubectl, yamllint, node and npm (the npm registry is reached once, for step 3).
#   scripts/check-k8s.sh                 all overlays under deploy/k8s/overlays
#   K8S_CHECK_CACHE=/path scripts/check-k8s.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${K8S_CHECK_CACHE:-/var/tmp/dq-k8s-check}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
fail=0
log() { printf '[check-k8s] %s\n' "$*" >&2; }

for tool in kubectl yamllint node npm; do
  command -v "$tool" >/dev/null || { log "missing tool: $tool (yamllint: apt-get install yamllint)"; exit 2; }
done

# ---- 1. render ----------------------------------------------------------------------------
overlays=()
for d in "$ROOT"/deploy/k8s/overlays/*/; do overlays+=("$(basename "$d")"); done
for o in "${overlays[@]}"; do
  kubectl kustomize "$ROOT/deploy/k8s/overlays/$o" >"$OUT/$o.yaml" ||
    { log "FAIL kustomize overlays/$o"; exit 1; }
  log "rendered overlays/$o: $(grep -c '^kind:' "$OUT/$o.yaml") objects"
done

# ---- 2. yamllint ----------------------------------------------------------------------------
if yamllint -f parsable -c "$ROOT/deploy/yamllint.yaml" "$ROOT/deploy/k8s" "$ROOT/deploy/compose" "$ROOT/docker-compose.yml" \
  "$OUT"/*.yaml; then
  log "yamllint: clean"
else
  log "FAIL yamllint"; fail=1
fi

# ---- 3 + 4. schema and policy ------------------------------------------------------------------
if [ ! -f "$CACHE/node_modules/kubernetes-models/package.json" ] ||
  [ ! -f "$CACHE/node_modules/js-yaml/package.json" ]; then
  log "npm install kubernetes-models js-yaml into $CACHE (once)"
  mkdir -p "$CACHE"
  (cd "$CACHE" && npm init -y >/dev/null && \
    npm install --no-audit --no-fund --silent kubernetes-models@4 js-yaml@4 >/dev/null)
fi
# The DQ_* names the binaries accept: the settings table and the notifier's own extras.
known=$(grep -ohE '"DQ_[A-Z0-9_]+"' "$ROOT/common/src/settings.cpp" \
  "$ROOT"/notifier/src/notifier_settings.cpp 2>/dev/null | tr -d '"' | sort -u | tr '\n' ' ')

cat >"$OUT/check.js" <<'EOF'
// Schema (kubernetes-models) and project policy checks of rendered manifests.
const fs = require("fs");
const path = require("path");
const yaml = require("js-yaml");
const [, , knownNames, ...files] = process.argv;
const known = new Set(knownNames.split(" ").filter(Boolean));
let errors = 0;
const err = (where, msg) => { errors++; console.error(`  ${where}: ${msg}`); };

function modelFor(apiVersion, kind) {
  const group = apiVersion.includes("/") ? apiVersion : `v1`;  // "apps/v1" or core "v1"
  try {
    const mod = require(`kubernetes-models/${group}/${kind}`);
    return mod[kind] || mod.default;
  } catch (e) {
    return null;
  }
}

function checkPodSpec(where, spec, opts) {
  const psc = spec.securityContext || {};
  if (psc.runAsNonRoot !== true) err(where, "pod securityContext.runAsNonRoot must be true");
  if (!psc.runAsUser || psc.runAsUser === 0) err(where, "pod securityContext.runAsUser must be non-zero");
  if ((psc.seccompProfile || {}).type !== "RuntimeDefault") err(where, "pod seccompProfile must be RuntimeDefault");
  if (spec.automountServiceAccountToken !== false) err(where, "automountServiceAccountToken must be false");
  for (const c of spec.containers || []) {
    const w = `${where} container ${c.name}`;
    const sc = c.securityContext || {};
    if (sc.allowPrivilegeEscalation !== false) err(w, "allowPrivilegeEscalation must be false");
    if (sc.readOnlyRootFilesystem !== true) err(w, "readOnlyRootFilesystem must be true");
    if (sc.privileged === true) err(w, "must not be privileged");
    const drop = ((sc.capabilities || {}).drop || []);
    if (!drop.includes("ALL")) err(w, "capabilities.drop must include ALL");
    if ((sc.capabilities || {}).add) err(w, "must not add capabilities");
    const r = c.resources || {};
    for (const k of ["requests", "limits"]) {
      for (const res of ["cpu", "memory"]) {
        if (!(r[k] || {})[res]) err(w, `resources.${k}.${res} missing`);
      }
    }
    if (!c.livenessProbe) err(w, "livenessProbe missing");
    if (!c.readinessProbe) err(w, "readinessProbe missing");
    if (opts.grpcProbes && !(c.readinessProbe || {}).grpc) err(w, "readinessProbe must be a native gRPC probe");
    if (opts.grpcProbes && !(c.livenessProbe || {}).grpc) err(w, "livenessProbe must be a native gRPC probe");
    if (opts.httpProbes && !(c.readinessProbe || {}).httpGet) err(w, "readinessProbe must be an HTTP probe");
    if (/:latest$/.test(c.image) || !/[:@]/.test(c.image)) err(w, `image ${c.image} needs an explicit tag`);
    for (const e of c.env || []) {
      if (e.name.startsWith("DQ_") && !known.has(e.name)) err(w, `unknown setting ${e.name}`);
    }
  }
}

// Locked-down deployment (issue 16 point 4): network policies, per-service Redis users, probes
// and metrics on the ops port only.
const aclUsers = fs.readFileSync(process.env.DQ_ACL_FILE, "utf8").split("\n")
  .filter((l) => l.trim() && !l.startsWith("#")).map((l) => l.trim().split(/\s+/));
// A user may take several lines; its first must start from nothing (resetchannels -@all), and
// no line may grant everything, a dangerous category or a command that changes keyspaces or
// scripts (issue 36: FUNCTION, SCRIPT, SELECT, MOVE, RENAME, COPY).
const firstLine = new Map();
for (const [user, , ...rules] of aclUsers) {
  if (!firstLine.has(user)) firstLine.set(user, rules);
  for (const r of rules.map((x) => x.replace(/^\(|\)$/g, "").toLowerCase())) {
    if (["+@all", "allcommands", "+@dangerous", "+@admin", "+@scripting", "+@keyspace", "+@write",
      "+flushall", "+flushdb", "+config", "+keys", "+function", "+script", "+script|flush",
      "+select", "+move", "+rename", "+renamenx", "+copy", "~*", "allkeys"].includes(r)) {
      err("users.acl", `user ${user} has ${r}`);
    }
  }
}
for (const [user, rules] of firstLine) {
  if (rules[0] !== "resetchannels" || rules[1] !== "-@all") {
    err("users.acl", `user ${user} must start from nothing: resetchannels -@all`);
  }
}
const aclNames = new Set(aclUsers.map((u) => u[0]));
function checkLockdown(name, byKind) {
  const policies = Object.fromEntries((byKind.NetworkPolicy || []).map((d) => [d.metadata.name, d]));
  for (const p of ["dq-validator", "dq-redis", "dq-notifier", "dq-gateway"]) {
    if (!policies[p]) err(name, `no NetworkPolicy ${p}`);
  }
  const v = policies["dq-validator"];
  if (v) {
    for (const rule of v.spec.ingress || []) {
      const ports = (rule.ports || []).map((p) => p.port);
      if (!ports.includes(50051)) continue;
      for (const f of rule.from || []) {
        const names = ((f.podSelector || {}).matchExpressions || []).flatMap((e) => e.values || []);
        if (f.namespaceSelector || f.ipBlock || !names.length ||
          names.some((n) => !["dq-gateway", "dq-worker"].includes(n))) {
          err(name, "validator gRPC must be reachable from dq-gateway/dq-worker pods only");
        }
      }
      if (!(rule.from || []).length) err(name, "validator gRPC open to everyone");
    }
  }
  const r = policies["dq-redis"];
  if (r) {
    for (const rule of r.spec.ingress || []) {
      if (!(rule.from || []).length) err(name, "Redis open to everyone");
      for (const f of rule.from || []) {
        if (f.namespaceSelector || f.ipBlock) err(name, "Redis must be reachable from dq pods only");
      }
    }
  }
  // The gateway and the workers call no customer (issue 36): egress to DNS, Redis and the
  // validator only, and no address block wider than one the overlay names for Redis.
  const g = policies["dq-gateway-egress"];
  if (!g) {
    err(name, "no NetworkPolicy dq-gateway-egress");
  } else {
    const selected = ((g.spec.podSelector.matchExpressions || [])[0] || {}).values || [];
    for (const app of ["dq-gateway", "dq-worker"]) {
      if (!selected.includes(app)) err(name, `dq-gateway-egress does not select ${app}`);
    }
    if (!(g.spec.policyTypes || []).includes("Egress")) err(name, "gateway egress not restricted");
    for (const rule of g.spec.egress || []) {
      for (const t of rule.to || []) {
        if (t.ipBlock) err(name, "gateway egress may not name address blocks (only pods)");
      }
      for (const p of rule.ports || []) {
        if (![53, 6379, 50051].includes(p.port)) err(name, `gateway egress to port ${p.port}`);
      }
    }
  }
  const n = policies["dq-notifier"];
  if (n) {
    if (!(n.spec.policyTypes || []).includes("Egress")) err(name, "notifier egress not restricted");
    for (const rule of n.spec.egress || []) {
      const ports = (rule.ports || []).map((p) => p.port);
      for (const t of rule.to || []) {
        if (!t.ipBlock) continue;
        if (ports.some((p) => p !== 443)) err(name, "notifier egress to addresses: port 443 only");
        if (t.ipBlock.cidr === "0.0.0.0/0") {
          for (const priv of ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "127.0.0.0/8"]) {
            if (!(t.ipBlock.except || []).includes(priv)) err(name, `notifier egress must exclude ${priv}`);
          }
        }
      }
    }
  }
  for (const d of byKind.Deployment || []) {
    const w = `${name} Deployment/${d.metadata.name}`;
    const ann = d.spec.template.metadata.annotations || {};
    for (const c of d.spec.template.spec.containers || []) {
      const httpPort = ((c.ports || []).find((p) => p.name === "http") || {}).containerPort;
      if (d.metadata.name === "dq-gateway" && ann["prometheus.io/port"] === String(httpPort)) {
        err(w, "/metrics must be scraped on the ops port, not the API port");
      }
      for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
        if (d.metadata.name === "dq-gateway" && probe && probe.httpGet && probe.httpGet.port !== "ops") {
          err(w, "probes must use the ops port");
        }
      }
      for (const e of c.env || []) {
        const ref = ((e.valueFrom || {}).secretKeyRef || {});
        if (e.name === "DQ_REDIS_PASSWORD" && ref.key === "password") {
          err(w, "a dq service must not use the default Redis user's password");
        }
      }
    }
  }
  for (const cm of byKind.ConfigMap || []) {
    const user = (cm.data || {}).DQ_REDIS_USER;
    if (user !== undefined && !aclNames.has(user)) err(name, `DQ_REDIS_USER ${user} is not in users.acl`);
  }
  for (const app of ["dq-gateway", "dq-notifier"]) {
    const cm = (byKind.ConfigMap || []).find((c) => c.metadata.name.startsWith(app + "-") || c.metadata.name === app);
    if (!cm || !(cm.data || {}).DQ_REDIS_USER) err(name, `${app} has no DQ_REDIS_USER`);
  }
}

for (const file of files) {
  const docs = yaml.loadAll(fs.readFileSync(file, "utf8")).filter(Boolean);
  const name = path.basename(file);
  const byKind = {};
  for (const doc of docs) {
    const where = `${name} ${doc.kind}/${(doc.metadata || {}).name}`;
    (byKind[doc.kind] = byKind[doc.kind] || []).push(doc);
    const Model = modelFor(doc.apiVersion, doc.kind);
    if (!Model) { err(where, `no schema for ${doc.apiVersion} ${doc.kind}`); continue; }
    try {
      new Model(doc).validate();
    } catch (e) {
      err(where, `schema: ${e.message.replace(/\s+/g, " ").slice(0, 600)}`);
    }
    if (doc.kind === "ConfigMap") {
      for (const k of Object.keys(doc.data || {})) {
        if (k.startsWith("DQ_") && !known.has(k)) err(where, `unknown setting ${k}`);
      }
    }
    if (["Deployment", "StatefulSet"].includes(doc.kind)) {
      const app = doc.metadata.name;
      checkPodSpec(where, doc.spec.template.spec, {
        grpcProbes: app === "dq-validator" || app === "dq-notifier",
        httpProbes: app === "dq-gateway" || app === "dq-worker",
      });
    }
  }
  // The gateway runs as two Deployments of one image: the API (DQ_ROLE=api, no job workers) and
  // the workers (DQ_ROLE=worker, only the ops port, no Service in front of them).
  const roleOf = (d) => {
    const c = ((d.spec.template.spec.containers || [])[0] || {});
    return ((c.env || []).find((e) => e.name === "DQ_ROLE") || {}).value;
  };
  for (const [dep, role] of [["dq-gateway", "api"], ["dq-worker", "worker"]]) {
    const d = (byKind.Deployment || []).find((x) => x.metadata.name === dep);
    if (!d) { err(name, `no Deployment ${dep}`); continue; }
    if (roleOf(d) !== role) err(name, `Deployment ${dep} must set DQ_ROLE=${role}`);
  }
  // the workers have their own Redis user (no API keys, console users or webhook settings)
  const worker = (byKind.Deployment || []).find((x) => x.metadata.name === "dq-worker");
  if (worker) {
    const c = ((worker.spec.template.spec.containers || [])[0] || {});
    const user = ((c.env || []).find((e) => e.name === "DQ_REDIS_USER") || {}).value;
    if (user !== "dq-worker" || !aclNames.has("dq-worker")) {
      err(name, "Deployment dq-worker must set DQ_REDIS_USER=dq-worker, a users.acl user");
    }
  }
  for (const svc of byKind.Service || []) {
    if (((svc.spec || {}).selector || {})["app.kubernetes.io/name"] === "dq-worker") {
      err(name, `Service ${svc.metadata.name} selects dq-worker, which has no public listener`);
    }
  }
  // prod scales the workers on the job queue: external (or pods) metrics only, among them the
  // oldest queued job's age and one derived from the queue depth.
  if (name === "prod.yaml") {
    const hpa = (byKind.HorizontalPodAutoscaler || []).find((h) => h.metadata.name === "dq-worker");
    const metrics = ((hpa || {}).spec || {}).metrics || [];
    const metricNames = metrics.map((m) => ((m.external || m.pods || {}).metric || {}).name);
    if (!metrics.length || metrics.some((m) => m.type !== "External" && m.type !== "Pods")) {
      err(name, "HPA dq-worker must scale on external or pods metrics only (the job queue)");
    }
    if (!metricNames.includes("dq_jobs_oldest_queued_age_seconds")) {
      err(name, "HPA dq-worker must use dq_jobs_oldest_queued_age_seconds");
    }
    if (!metricNames.some((n) => n === "dq_jobs_queue_depth" || n === "dq_jobs_backlog")) {
      err(name, "HPA dq-worker must use dq_jobs_queue_depth or dq_jobs_backlog");
    }
  }
  // Scaling rules the design asks for.
  const names = (k) => (byKind[k] || []).map((d) => d.metadata.name);
  for (const d of ["dq-gateway", "dq-worker", "dq-validator"]) {
    if (!names("HorizontalPodAutoscaler").includes(d)) err(name, `no HorizontalPodAutoscaler for ${d}`);
  }
  for (const d of names("Deployment")) {
    if (!names("PodDisruptionBudget").includes(d)) err(name, `no PodDisruptionBudget for ${d}`);
  }
  if (!names("Service").includes("dq-redis")) err(name, "no Service dq-redis (DQ_REDIS_HOST)");
  checkLockdown(name, byKind);
  console.error(`  ${name}: ${docs.length} objects checked`);
}
process.exit(errors ? 1 : 0);
EOF
if DQ_ACL_FILE="$ROOT/deploy/redis/users.acl" NODE_PATH="$CACHE/node_modules" node "$OUT/check.js" "$known" "$OUT"/*.yaml; then
  log "schema (kubernetes-models) and policy: clean"
else
  log "FAIL schema/policy"; fail=1
fi

# ---- 5. compose -------------------------------------------------------------------------------
if command -v docker-compose >/dev/null; then
  if docker-compose -f "$ROOT/docker-compose.yml" config -q; then
    log "docker-compose config -q: clean"
  else
    log "FAIL docker-compose config"; fail=1
  fi
  # the same DQ_* rule for the compose environments
  bad=$(docker-compose -f "$ROOT/docker-compose.yml" config 2>/dev/null |
    grep -oE '^\s+DQ_[A-Z0-9_]+:' | tr -d ' :' | sort -u |
    while read -r n; do case " $known " in *" $n "*) ;; *) echo "$n" ;; esac; done)
  [ -z "$bad" ] || { log "FAIL docker-compose.yml uses unknown settings: $bad"; fail=1; }
  # the override files (deploy/compose/*.yml) over the stack, each on its own
  for o in "$ROOT"/deploy/compose/*.yml; do
    if docker-compose -f "$ROOT/docker-compose.yml" -f "$o" config -q; then
      log "docker-compose config -q with ${o#"$ROOT"/}: clean"
    else
      log "FAIL docker-compose config with ${o#"$ROOT"/}"; fail=1
    fi
  done
else
  log "docker-compose (v1) not installed: compose check skipped (apt-get install --no-install-recommends docker-compose)"
fi

if [ "$fail" = 0 ]; then log "all checks passed"; else log "checks FAILED"; fi
exit "$fail"
