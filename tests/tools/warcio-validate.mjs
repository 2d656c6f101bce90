// warcio-validate.mjs: reads WARC files back with warcio, an independent
// reader, and checks what Cartograph's writer promises.
//
// Usage: node tests/tools/warcio-validate.mjs FILE.warc.gz...
//
// For each file: every record is read fully by warcio's WARCParser (once
// as raw blocks, once with the HTTP messages parsed); WARC-Block-Digest and
// WARC-Payload-Digest are recomputed here with node:crypto; the mandatory
// fields, record ids, dates, links between records and revisit fields are
// checked; gzip-encoded payloads are decoded by warcio. When NAME.cdxj lies
// beside NAME.warc.gz, each of its lines is compared with the index warcio
// builds of the file, and its offsets and lengths with where warcio found
// the records. Exits non-zero with a message on the first error.
//
// Copyright 2026 The Cartograph authors
// SPDX-License-Identifier: GPL-3.0-or-later

import { createHash } from "node:crypto";
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { isIP } from "node:net";
import { basename } from "node:path";
import { CDXIndexer, WARCParser } from "warcio";

const REVISIT_PROFILE = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest";
const RECORD_ID = /^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}>$/;
const WARC_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const CONTENT_TYPES = {
  warcinfo: "application/warc-fields",
  metadata: "application/warc-fields",
  request: "application/http;msgtype=request",
  response: "application/http;msgtype=response",
  revisit: "application/http;msgtype=response",
};
const HASHES = { sha1: "sha1", sha256: "sha256", sha512: "sha512", md5: "md5" };

class ValidationError extends Error {}

function fail(where, message) {
  throw new ValidationError(`${where}: ${message}`);
}

// warcio reports some problems (such as a Content-Length that is too
// small) only as console warnings: treat them as errors.
let currentPlace = "";
console.warn = (...args) => fail(currentPlace, `warcio warned: ${args.join(" ")}`);

// RFC 4648 base32, written here so the check does not share code with
// either the writer or warcio.
function base32(bytes) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) {
    out += alphabet[(value << (5 - bits)) & 31];
  }
  while (out.length % 8 !== 0) {
    out += "=";
  }
  return out;
}

function checkDigest(where, field, declared, data) {
  if (!declared) {
    fail(where, `no ${field}`);
  }
  const colon = declared.indexOf(":");
  const algorithm = HASHES[declared.slice(0, colon).toLowerCase()];
  if (colon < 0 || !algorithm) {
    fail(where, `${field} "${declared}" has no known algorithm`);
  }
  const raw = createHash(algorithm).update(data).digest();
  const expected = declared.slice(colon + 1).replace(/=+$/, "").toUpperCase();
  const computed = base32(raw).replace(/=+$/, "");
  if (expected !== computed && expected !== raw.toString("hex").toUpperCase()) {
    fail(where, `${field} is ${declared}, but the data gives ${computed}`);
  }
}

function indexOfCrlfCrlf(block) {
  for (let i = 0; i + 3 < block.length; i++) {
    if (block[i] === 13 && block[i + 1] === 10 && block[i + 2] === 13 && block[i + 3] === 10) {
      return i + 4;
    }
  }
  return -1;
}

function sha1(data) {
  return createHash("sha1").update(data).digest("hex");
}

// Pass 1: raw blocks, digests, mandatory fields.
async function readRaw(file, state) {
  const name = basename(file);
  const parser = new WARCParser(createReadStream(file), { parseHttp: false, keepHeadersCase: true });
  const records = [];
  const ids = new Set();

  for await (const record of parser) {
    const offset = parser.offset;
    const where = `${file} offset ${offset}`;
    currentPlace = where;
    const h = (field) => record.warcHeaders.headers.get(field);
    const type = record.warcType;
    const block = await record.readFully(false);

    if (record.warcHeaders.statusline !== "WARC/1.1") {
      fail(where, `version line "${record.warcHeaders.statusline}", not WARC/1.1`);
    }
    const id = h("WARC-Record-ID");
    if (!RECORD_ID.test(id || "")) {
      fail(where, `bad WARC-Record-ID "${id}"`);
    }
    if (ids.has(id) || state.ids.has(id)) {
      fail(where, `WARC-Record-ID ${id} is not unique`);
    }
    ids.add(id);
    if (!WARC_DATE.test(h("WARC-Date") || "")) {
      fail(where, `bad WARC-Date "${h("WARC-Date")}"`);
    }
    if (!type) {
      fail(where, "no WARC-Type");
    }
    if (String(block.length) !== h("Content-Length")) {
      fail(where, `Content-Length ${h("Content-Length")}, but the block has ${block.length} bytes`);
    }
    if (CONTENT_TYPES[type] && h("Content-Type") !== CONTENT_TYPES[type]) {
      fail(where, `${type} record with Content-Type "${h("Content-Type")}"`);
    }
    if (records.length === 0) {
      if (type !== "warcinfo" || h("WARC-Filename") !== name) {
        fail(where, "the file does not start with a warcinfo record naming it");
      }
      const text = Buffer.from(block).toString("utf-8");
      for (const line of ["software: Cartograph ", "format: WARC File Format 1.1\r\n", "robots: "]) {
        if (!text.includes(line)) {
          fail(where, `the warcinfo record has no "${line.trim()}" line`);
        }
      }
    } else if (type === "warcinfo") {
      fail(where, "a second warcinfo record");
    } else if (!record.warcTargetURI) {
      fail(where, `${type} record without WARC-Target-URI`);
    } else if (h("WARC-Warcinfo-ID") !== records[0].id) {
      fail(where, `WARC-Warcinfo-ID is not the id of the file's warcinfo record`);
    }

    checkDigest(where, "WARC-Block-Digest", h("WARC-Block-Digest"), block);

    let payload = null;
    if (type === "response" || type === "request") {
      const start = indexOfCrlfCrlf(block);
      if (start < 0) {
        fail(where, "the HTTP header block has no end");
      }
      payload = block.subarray(start);
      checkDigest(where, "WARC-Payload-Digest", h("WARC-Payload-Digest"), payload);
      if (h("WARC-IP-Address") && !isIP(h("WARC-IP-Address"))) {
        fail(where, `bad WARC-IP-Address "${h("WARC-IP-Address")}"`);
      }
    } else if (type === "resource") {
      payload = block;
      checkDigest(where, "WARC-Payload-Digest", h("WARC-Payload-Digest"), payload);
    } else if (type === "revisit") {
      if (h("WARC-Profile") !== REVISIT_PROFILE) {
        fail(where, `revisit with WARC-Profile "${h("WARC-Profile")}"`);
      }
      for (const field of ["WARC-Refers-To-Target-URI", "WARC-Refers-To-Date", "WARC-Payload-Digest"]) {
        if (!h(field)) {
          fail(where, `revisit without ${field}`);
        }
      }
      if (indexOfCrlfCrlf(block) !== block.length) {
        fail(where, "revisit block is not exactly an HTTP header block");
      }
      state.revisits.push({ where, refersTo: h("WARC-Refers-To"), digest: h("WARC-Payload-Digest") });
    } else if (h("WARC-Payload-Digest")) {
      fail(where, `${type} record with a WARC-Payload-Digest`);
    }

    for (const target of record.warcConcurrentTo || []) {
      state.links.push({ where, target: target.trim() });
    }
    records.push({ offset, type, id, payload, payloadDigest: h("WARC-Payload-Digest") });
    state.counts[type] = (state.counts[type] || 0) + 1;
  }

  for (const id of ids) {
    state.ids.add(id);
  }
  for (const r of records) {
    if (r.payloadDigest && r.type === "response") {
      state.payloadDigests.set(r.id, r.payloadDigest);
    }
  }

  // Records lie one per gzip member, end to end: each one's length is
  // where the next begins.
  const size = statSync(file).size;
  for (let i = 0; i < records.length; i++) {
    records[i].length = (i + 1 < records.length ? records[i + 1].offset : size) - records[i].offset;
  }
  return records;
}

// Pass 2: the same file with warcio's HTTP parsing.
async function readHttp(file, raw) {
  const parser = new WARCParser(createReadStream(file));
  let i = 0;

  for await (const record of parser) {
    const expected = raw[i++];
    const where = `${file} offset ${expected.offset}`;
    currentPlace = where;
    const type = record.warcType;

    if (type !== expected.type) {
      fail(where, `second reading gives a ${type} record where the first gave ${expected.type}`);
    }
    if (type === "response" || type === "request" || type === "revisit") {
      const http = record.httpHeaders;
      if (!http) {
        fail(where, `warcio finds no HTTP message in the ${type} record`);
      }
      if (type === "request" ? !/^[A-Z]+ \S+ HTTP\/1\.[01]$/.test(http.statusline)
                             : !/^HTTP\/1\.[01] \d{3}( |$)/.test(http.statusline)) {
        fail(where, `bad HTTP start line "${http.statusline}"`);
      }
      const payload = await record.readFully(false);
      if (type === "revisit") {
        if (payload.length !== 0) {
          fail(where, "revisit record with a payload");
        }
      } else if (sha1(payload) !== sha1(expected.payload)) {
        fail(where, "warcio reads another payload than the raw block holds");
      }
      const encoding = http.headers.get("Content-Encoding");
      if (type === "response" && encoding === "gzip") {
        const decoded = Buffer.from(await record.readFully(true)).toString("utf-8");
        if (!decoded.includes("<html")) {
          fail(where, "the gzip-encoded payload does not decode to the page");
        }
      }
    } else {
      await record.readFully(false);
    }
  }
  if (i !== raw.length) {
    fail(file, `second reading gives ${i} records, the first ${raw.length}`);
  }
}

// Pass 3: the CDXJ index beside the file.
async function checkIndex(file, raw) {
  const indexPath = file.replace(/\.warc(\.gz)?$/, ".cdxj");
  if (!existsSync(indexPath)) {
    return 0;
  }
  const name = basename(file);
  const byOffset = new Map(raw.map((r) => [r.offset, r]));
  const warcioLines = new Map();
  const indexer = new CDXIndexer({ format: "cdxj" });

  currentPlace = indexPath;
  for await (const cdx of indexer.iterIndex([{ filename: name, reader: createReadStream(file) }])) {
    warcioLines.set(Number(cdx.offset), cdx);
  }

  const lines = readFileSync(indexPath, "utf-8").split("\n");
  if (lines.pop() !== "") {
    fail(indexPath, "the last line has no newline");
  }
  for (let i = 0; i < lines.length; i++) {
    const where = `${indexPath} line ${i + 1}`;
    if (i > 0 && Buffer.compare(Buffer.from(lines[i - 1]), Buffer.from(lines[i])) > 0) {
      fail(where, "lines are not sorted");
    }
    const match = /^(\S+) (\d{14}) (\{.*\})$/.exec(lines[i]);
    if (!match) {
      fail(where, "not KEY TIMESTAMP {JSON}");
    }
    const [, urlkey, timestamp, json] = match;
    const ours = JSON.parse(json);
    const offset = Number(ours.offset);
    const record = byOffset.get(offset);
    if (!record) {
      fail(where, `no record starts at offset ${ours.offset}`);
    }
    if (Number(ours.length) !== record.length) {
      fail(where, `length ${ours.length}, but the record at ${offset} is ${record.length} bytes`);
    }
    if (ours.filename !== name) {
      fail(where, `filename ${ours.filename}, not ${name}`);
    }
    const theirs = warcioLines.get(offset);
    if (!theirs) {
      fail(where, `warcio does not index the ${record.type} record at offset ${offset}`);
    }
    // warcio keys a non-GET request by its method and body; Cartograph's
    // index does not (yet), so only the other fields are compared there.
    const fields = theirs.method ? [] : [["urlkey", urlkey], ["timestamp", timestamp]];
    for (const field of ["url", "mime", "status", "digest"]) {
      fields.push([field, ours[field]]);
    }
    for (const [field, value] of fields) {
      const expected = theirs[field] === undefined || theirs[field] === null ? undefined : String(theirs[field]);
      if (value !== expected) {
        fail(where, `${field} is ${JSON.stringify(value)}, warcio gives ${JSON.stringify(expected)}`);
      }
    }
  }
  if (lines.length !== warcioLines.size) {
    fail(indexPath, `${lines.length} lines, but warcio indexes ${warcioLines.size} records`);
  }
  return lines.length;
}

async function main(files) {
  if (files.length === 0) {
    console.error("usage: node warcio-validate.mjs FILE.warc.gz...");
    process.exit(2);
  }
  const state = { ids: new Set(), links: [], revisits: [], counts: {}, payloadDigests: new Map() };
  let indexLines = 0;
  let records = 0;

  for (const file of files) {
    const raw = await readRaw(file, state);
    await readHttp(file, raw);
    indexLines += await checkIndex(file, raw);
    records += raw.length;
    console.log(`ok ${file}: ${raw.length} records`);
  }

  for (const { where, target } of state.links) {
    if (!state.ids.has(target)) {
      fail(where, `WARC-Concurrent-To ${target} names no record`);
    }
  }
  for (const { where, refersTo, digest } of state.revisits) {
    if (refersTo && state.payloadDigests.get(refersTo) !== digest) {
      fail(where, `revisit digest ${digest} is not the one of ${refersTo}`);
    }
  }

  const counts = Object.entries(state.counts).sort().map(([t, n]) => `${t} ${n}`).join(", ");
  console.log(`warcio read ${files.length} files, ${records} records (${counts}), ` +
              `${indexLines} CDXJ lines: all digests and links check`);
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error instanceof ValidationError ? `FAIL ${error.message}` : error);
  process.exit(1);
});
