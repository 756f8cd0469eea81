#!/usr/bin/env node
// Upload a file to dq, wait for the job, download the results and page through the issues.
//
//   DQ_BASE_URL=http://127.0.0.1:8080 DQ_API_KEY=dq_... node dq_client.mjs products.csv [--out DIR] [--page-size N]
//
// Steps: POST /v1/jobs (multipart), poll GET /v1/jobs/{id} until the job is done or failed,
// download GET /v1/jobs/{id}/cleaned and GET /v1/jobs/{id}/issues?format=csv into --out, then
// read every issue page by page with offset and limit. Prints one JSON summary on stdout.
// Node 18+ only: the built-in fetch, FormData and Blob; no packages. Honours Retry-After.
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { parseArgs } from "node:util";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class Client {
  constructor(baseUrl, apiKey) {
    this.base = baseUrl.replace(/\/+$/, "");
    this.apiKey = apiKey;
  }

  // One call; waits and retries (up to 5 times) when told to by Retry-After.
  async request(method, path, { body, query } = {}) {
    const url = new URL(this.base + path);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, String(v));
    let res;
    for (let attempt = 0; attempt < 5; attempt++) {
      res = await fetch(url, { method, body, headers: { "X-API-Key": this.apiKey } });
      const retryAfter = res.headers.get("retry-after");
      if ((res.status === 429 || res.status === 503) && retryAfter !== null) {
        const error = (await res.clone().json().catch(() => ({}))).error;
        if (error === "quota_exceeded") break;  // waiting for next month is not an option
        await sleep(Math.min(Number(retryAfter), 60) * 1000);
        continue;
      }
      break;
    }
    if (!res.ok) {
      // Every error is JSON: {"error": code, "message": ...}; X-Request-Id helps support.
      throw new Error(`${method} ${path}: ${res.status} ${await res.text()} ` +
                      `(request id ${res.headers.get("x-request-id")})`);
    }
    return res;
  }

  async upload(path, checkTypes) {
    const form = new FormData();
    form.set("file", new Blob([await readFile(path)], { type: "text/csv" }), basename(path));
    if (checkTypes) form.set("check_types", checkTypes);
    return (await this.request("POST", "/v1/jobs", { body: form })).json();
  }

  // Polls the job with a growing interval until it is done or failed.
  async wait(jobId, timeoutMs = 300_000) {
    const deadline = Date.now() + timeoutMs;
    let delay = 200;
    for (;;) {
      const job = await (await this.request("GET", `/v1/jobs/${jobId}`)).json();
      if (job.status === "done" || job.status === "failed") return job;
      if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status}`);
      await sleep(delay);
      delay = Math.min(delay * 1.5, 5000);
    }
  }

  async download(path, target) {
    const res = await this.request("GET", path);
    await writeFile(target, Buffer.from(await res.arrayBuffer()));
    return target;
  }

  // Yields every issue of the job, one page at a time.
  async *issues(jobId, pageSize = 1000) {
    let offset = 0;
    for (;;) {
      const page = await (await this.request("GET", `/v1/jobs/${jobId}/issues`,
                                             { query: { offset, limit: pageSize } })).json();
      yield* page.issues;
      offset += page.issues.length;
      if (page.issues.length === 0 || offset >= page.total) return;
    }
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      out: { type: "string", default: "." },
      "check-types": { type: "string", default: "product,price" },
      "page-size": { type: "string", default: "1000" },
    },
  });
  if (positionals.length !== 1) throw new Error("usage: dq_client.mjs FILE [--out DIR]");
  const key = process.env.DQ_API_KEY;
  if (!key) throw new Error("set DQ_API_KEY (and DQ_BASE_URL)");
  const client = new Client(process.env.DQ_BASE_URL ?? "http://127.0.0.1:8080", key);
  const file = positionals[0];

  let job = await client.upload(file, values["check-types"]);
  console.error(`uploaded ${file}: job ${job.id} is ${job.status}`);
  job = await client.wait(job.id);
  if (job.status === "failed") throw new Error(`job ${job.id} failed: ${job.error}`);

  await mkdir(values.out, { recursive: true });
  const name = basename(file);
  const cleaned = await client.download(`/v1/jobs/${job.id}/cleaned`,
                                        join(values.out, `cleaned-${name}`));
  const issuesCsv = await client.download(`/v1/jobs/${job.id}/issues?format=csv&limit=10000`,
                                          join(values.out, `issues-${basename(name, extname(name))}.csv`));
  const byCode = {};
  let count = 0;
  for await (const issue of client.issues(job.id, Number(values["page-size"]))) {
    count++;
    byCode[issue.code] = (byCode[issue.code] ?? 0) + 1;
  }
  const summary = {
    cleaned_file: cleaned,
    health_score: job.health_score,
    issues_by_code: Object.fromEntries(Object.entries(byCode).sort()),
    issues_csv: issuesCsv,
    issues_paged: count,
    issues_total: job.issues_total,
    job_id: job.id,
    rows_total: job.rows_total,
    status: job.status,
  };
  console.log(JSON.stringify(summary));
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
