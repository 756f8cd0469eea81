#!/usr/bin/env node
// A dq webhook receiver that checks every delivery before trusting it.
//
//   npm install standardwebhooks        (or: NODE_PATH=/path/to/node_modules)
//   WEBHOOK_SECRET=whsec_... node webhook_receiver.cjs --port 8000
//
// For each POST it verifies, on the raw body bytes and before parsing them:
//  1. X-Service-Signature: "sha256=" + hex HMAC-SHA256 of the body, keyed with the secret as it
//     is (the whole string), compared in constant time (crypto.timingSafeEqual).
//  2. When the delivery carries the Standard Webhooks headers (secrets of the whsec_ form): the
//     webhook-id / webhook-timestamp / webhook-signature triple, with the published
//     `standardwebhooks` package (which also refuses timestamps more than 5 minutes away).
// A verified delivery gets 204 and a refused one 401; each prints one JSON line on stdout.
// Deduplicate on X-Service-Delivery (the same on every retry): dq delivers at least once.
"use strict";
const http = require("node:http");
const crypto = require("node:crypto");
const { parseArgs } = require("node:util");
const { Webhook } = require("standardwebhooks");

function verifyServiceSignature(secret, body, header) {
  const expected = Buffer.from(
    "sha256=" + crypto.createHmac("sha256", secret).update(body).digest("hex"));
  const given = Buffer.from(header ?? "");
  // timingSafeEqual needs equal lengths; the length of a hex digest is no secret.
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

function main() {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: process.env.PORT ?? "8000" },
      bind: { type: "string", default: "127.0.0.1" },
    },
  });
  const secret = process.env.WEBHOOK_SECRET ?? "";
  if (!secret) console.error("warning: WEBHOOK_SECRET is not set; deliveries are not verified");
  const standard = secret.startsWith("whsec_") ? new Webhook(secret) : null;
  const seen = new Set();  // delivery ids already processed (in memory here; use your database)

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);  // the raw bytes
      const h = req.headers;               // names are lower-case
      const result = { delivery: h["x-service-delivery"] ?? null, event: h["x-service-event"] ?? null };
      let why = "";
      if (secret) {
        if (!verifyServiceSignature(secret, body, h["x-service-signature"])) {
          why = "X-Service-Signature does not match";
        }
        result.x_service_signature = why ? "invalid" : "verified";
        if (!why && h["webhook-signature"] !== undefined) {
          try {
            if (!standard) throw new Error("the secret is not of the whsec_ form");
            standard.verify(body, {
              "webhook-id": h["webhook-id"],
              "webhook-timestamp": h["webhook-timestamp"],
              "webhook-signature": h["webhook-signature"],
            });
            result.standard_webhooks = "verified";
          } catch (e) {
            why = e.message;
            result.standard_webhooks = "invalid";
          }
        } else if (!why) {
          result.standard_webhooks = "absent";
        }
      }
      let status = 204;
      if (why) {
        result.refused = why;
        status = 401;
      } else {
        const payload = JSON.parse(body.toString("utf8"));  // only now: the bytes are authentic
        Object.assign(result, { job_id: payload.jobId ?? null, status: payload.status ?? null,
                                duplicate: seen.has(result.delivery) });
        seen.add(result.delivery);
      }
      console.log(JSON.stringify(Object.fromEntries(Object.entries(result).sort())));
      res.writeHead(status).end();
    });
  });
  server.listen(Number(values.port), values.bind, () => {
    console.log(JSON.stringify({ listening: server.address().port }));
  });
}

main();
