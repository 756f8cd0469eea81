// A chunk evaluated on several threads (Session::AddRows with a WorkerPool) gives exactly the
// issues, order, messages and stats of the same rows added one by one on one thread: the
// cross-row checks (duplicate SKUs, GTINs on two SKUs, e-mails and phones; price outliers; the
// date order a column shows) are merged in row order whatever the number of threads, the chunk
// size, the rows' kinds, or the order in which slices finish.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "price_outliers.h"
#include "reference_data.h"
#include "session.h"
#include "worker_pool.h"

namespace dq::validator {
namespace {

using Rows = std::vector<std::vector<std::string>>;

const std::vector<std::string> kFields = {"sku",   "title",   "price",       "category",
                                          "email", "phone",   "country",     "expiry_date",
                                          "stock_qty", "gtin"};

BatchSpec Spec() {
  const std::vector<std::string> checks = {"product", "price", "customer", "inventory"};
  auto spec = BatchSpec::Make(kFields, checks, "");
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  spec->today = 20000;  // 2024-10-04: fixed, so expiry checks do not depend on the day
  return *spec;
}

// Rows with duplicates spread over the whole file. `first_sku` / `first_email` record, for each
// row that repeats a key, the row (from 1) that used it first, and `first_gtin` the first row
// that carried a row's GTIN with another SKU: computed here, independently of the engine. With
// `kinds`, rows are products, variants, parents and images at random, and only products and
// variants count for the SKUs and GTINs; without, every row is a product (`kinds` stays empty).
struct Data {
  Rows rows;
  std::vector<RowKind> kinds;
  std::map<uint64_t, uint64_t> first_sku;
  std::map<uint64_t, uint64_t> first_email;
  std::map<uint64_t, uint64_t> first_gtin;
};

// A GTIN-13 starting with 4 (a German prefix, neither restricted nor a coupon) and a valid
// check digit.
std::string Gtin13(std::mt19937_64& rng) {
  std::string g = "4";
  for (int i = 0; i < 11; ++i) g.push_back(static_cast<char>('0' + rng() % 10));
  int sum = 0;
  for (size_t i = 0; i < 12; ++i) sum += (g[i] - '0') * (i % 2 ? 3 : 1);
  g.push_back(static_cast<char>('0' + (10 - sum % 10) % 10));
  return g;
}

Data Generate(size_t n, uint64_t seed, bool kinds = false) {
  std::mt19937_64 rng(seed);
  auto pick = [&](size_t k) { return static_cast<size_t>(rng() % k); };
  const char* categories[] = {"Kitchen", "Garden", "Toys", "Books", "Rare"};
  const char* countries[] = {"DE", "FR", "GB", "US", "de", ""};
  const char* phones[] = {
      "+49 30 901820", "+33 1 44 55 66 77", "030 901820", "+44 20 7946 0958", "12", ""};
  Data d;
  std::map<std::string, uint64_t> skus, emails;
  std::map<std::string, std::pair<uint64_t, std::string>> gtins;  // first row, its SKU
  for (size_t i = 0; i < n; ++i) {
    const uint64_t row = i + 1;
    RowKind kind = RowKind::kProduct;
    if (kinds) {
      const size_t k = pick(20);
      kind = k < 12 ? RowKind::kProduct
                    : (k < 16 ? RowKind::kVariant : (k < 18 ? RowKind::kParent : RowKind::kImage));
      d.kinds.push_back(kind);
    }
    const bool purchasable = kind == RowKind::kProduct || kind == RowKind::kVariant;
    std::string sku = "SKU-" + std::to_string(i);
    std::string sku_key = sku;
    if (i > 10 && pick(9) == 0) {  // repeat an earlier row's SKU, sometimes with spaces
      sku_key = d.rows[pick(i)][0];
      while (!sku_key.empty() && sku_key.front() == ' ') sku_key.erase(0, 1);
      while (!sku_key.empty() && sku_key.back() == ' ') sku_key.pop_back();
      sku = pick(2) ? " " + sku_key + " " : sku_key;
    }
    if (purchasable) {
      if (auto [it, fresh] = skus.emplace(sku_key, row); !fresh) d.first_sku[row] = it->second;
    }
    // A GTIN of its own, or (one row in eight) an earlier row's.
    const std::string gtin = i > 10 && pick(8) == 0 ? d.rows[pick(i)][9] : Gtin13(rng);
    if (purchasable) {
      if (auto [it, fresh] = gtins.emplace(gtin, std::make_pair(row, sku_key)); !fresh) {
        if (it->second.second != sku_key) d.first_gtin[row] = it->second.first;
      }
    }

    std::string email;
    const size_t e = pick(10);
    if (e < 6) {
      email = "c" + std::to_string(pick(n)) + "@gmail.com";  // collisions across the file
    } else if (e == 6) {
      email = "C" + std::to_string(pick(40)) + "@Gmail.COM";  // repeats, case-folded
    } else if (e == 7) {
      email = "not-an-email";
    }  // else no e-mail: such rows are matched on phone
    if (e < 7 && kind != RowKind::kImage) {
      std::string key = email;
      for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (auto [it, fresh] = emails.emplace(key, row); !fresh) d.first_email[row] = it->second;
    }

    const std::string category = categories[pick(5)];
    // Prices around 20 with outliers; "Rare" has too few rows of its own for fences.
    std::string price = std::to_string(15 + pick(11)) + "." + std::to_string(10 + pick(90));
    if (pick(60) == 0) price = std::to_string(900 + pick(100));
    if (pick(80) == 0) price = "0.0" + std::to_string(1 + pick(9));
    if (category == std::string("Rare") && pick(4) != 0) price = "abc";
    // Dates: ambiguous until a row shows the order (rows past 60% show day first).
    std::string expiry;
    const size_t x = pick(6);
    if (x == 0) expiry = "03/04/2027";
    if (x == 1 && i * 10 > n * 6) expiry = "25/04/2027";
    if (x == 2) expiry = "2023-01-01";
    d.rows.push_back({sku, pick(30) ? "Product " + std::to_string(i) : "", price, category, email,
                      phones[pick(6)], countries[pick(6)], expiry,
                      pick(20) ? std::to_string(pick(500)) : "-3", gtin});
  }
  return d;
}

std::string Describe(const Issue& i) {
  return std::to_string(i.row) + "|" + std::string(Def(i.code).code) + "|" +
         std::to_string(static_cast<int>(i.field)) + "|" + i.original + "|" +
         (i.fixed ? "=" + *i.fixed : "-") + "|" + i.message;
}

struct Outcome {
  std::vector<std::string> issues;
  Stats stats;
};

// The reference: every chunk observed, then its rows added one by one, on this thread.
Outcome OneByOne(const Rows& rows, size_t chunk, const std::vector<RowKind>& kinds = {}) {
  Session s(ReferenceData::Default(), Spec());
  std::vector<Issue> issues;
  std::vector<std::string_view> values;
  for (size_t begin = 0; begin < rows.size(); begin += chunk) {
    const size_t end = std::min(rows.size(), begin + chunk);
    for (size_t r = begin; r < end; ++r) {
      values.assign(rows[r].begin(), rows[r].end());
      s.Observe(values);
    }
    for (size_t r = begin; r < end; ++r) {
      values.assign(rows[r].begin(), rows[r].end());
      s.AddRow(values, issues, kinds.empty() ? RowKind::kProduct : kinds[r]);
    }
  }
  s.Finish(issues);
  Outcome o;
  for (const Issue& i : issues) o.issues.push_back(Describe(i));
  o.stats = s.stats();
  return o;
}

Session::RowReader Reader(const Rows& rows, size_t begin) {
  return [&rows, begin](size_t i, std::vector<std::string_view>& values) {
    values.assign(rows[begin + i].begin(), rows[begin + i].end());
  };
}

Outcome Chunked(const Rows& rows, size_t chunk, WorkerPool* pool,
                const std::vector<RowKind>& kinds = {}) {
  Session s(ReferenceData::Default(), Spec(), pool);
  std::vector<Issue> issues;
  for (size_t begin = 0; begin < rows.size(); begin += chunk) {
    const size_t n = std::min(chunk, rows.size() - begin);
    std::vector<RowKind> chunk_kinds;
    if (!kinds.empty()) chunk_kinds.assign(kinds.begin() + begin, kinds.begin() + begin + n);
    s.AddRows(n, Reader(rows, begin), issues, std::move(chunk_kinds));
  }
  s.Finish(issues);
  Outcome o;
  for (const Issue& i : issues) o.issues.push_back(Describe(i));
  o.stats = s.stats();
  return o;
}

void ExpectSameStats(const Stats& a, const Stats& b) {
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.errors, b.errors);
  EXPECT_EQ(a.warnings, b.warnings);
  EXPECT_EQ(a.fixes, b.fixes);
  EXPECT_EQ(a.rows_error, b.rows_error);
  EXPECT_EQ(a.rows_warning, b.rows_warning);
  EXPECT_EQ(a.rows_fixed, b.rows_fixed);
  EXPECT_EQ(a.score, b.score);
}

// The issues with `code`, by row, with their messages.
std::map<uint64_t, std::string> ByRow(const std::vector<std::string>& issues,
                                      const std::string& code, const std::string& prefix) {
  std::map<uint64_t, std::string> out;
  for (const std::string& d : issues) {
    if (d.find("|" + code + "|") == std::string::npos) continue;
    const size_t msg = d.rfind('|') + 1;
    if (d.compare(msg, prefix.size(), prefix) != 0) continue;
    out[std::stoull(d)] = d.substr(msg + prefix.size());
  }
  return out;
}

TEST(ParallelSession, DataHasWhatTheTestNeeds) {
  const Data d = Generate(20000, 7);
  const Outcome o = OneByOne(d.rows, 4096);
  // Duplicates that reach back across chunks, outliers, and the date order learnt late.
  bool sku_across_chunks = false;
  for (auto [row, first] : d.first_sku) sku_across_chunks |= (row - 1) / 4096 != (first - 1) / 4096;
  EXPECT_TRUE(sku_across_chunks);
  size_t outliers = 0, ambiguous = 0, reformatted = 0, phone_duplicates = 0;
  for (const std::string& i : o.issues) {
    outliers += i.find("|PRICE_OUTLIER_") != std::string::npos;
    ambiguous += i.find("|AMBIGUOUS_DATE|") != std::string::npos;
    reformatted += i.find("|DATE_REFORMATTED|") != std::string::npos;
    phone_duplicates += i.find("Same phone number as row") != std::string::npos;
  }
  EXPECT_GT(outliers, 100u);
  EXPECT_GT(ambiguous, 100u);
  EXPECT_GT(reformatted, 100u);
  EXPECT_GT(phone_duplicates, 100u);
}

// The duplicate issues name exactly the first rows the generator recorded.
TEST(ParallelSession, DuplicatesNameTheFirstRowAcrossChunks) {
  const Data d = Generate(20000, 11);
  WorkerPool pool(4);
  const Outcome o = Chunked(d.rows, 4096, &pool);
  const auto skus = ByRow(o.issues, "DUPLICATE_SKU", "SKU is already used by row ");
  ASSERT_EQ(skus.size(), d.first_sku.size());
  for (auto [row, first] : d.first_sku) EXPECT_EQ(skus.at(row), std::to_string(first)) << row;
  // Only rows whose e-mail passed the checks are keyed, so compare where the engine reported.
  const auto emails = ByRow(o.issues, "DUPLICATE_CUSTOMER", "Same e-mail as row ");
  ASSERT_GT(emails.size(), 1000u);
  for (auto [row, first] : emails) EXPECT_EQ(first, std::to_string(d.first_email.at(row))) << row;
}

// Row kinds: duplicates of SKUs and GTINs among products and variants only, named exactly as the
// generator recorded them, and image rows without any issue.
TEST(ParallelSession, KindsKeepDuplicatesAmongPurchasableRowsAcrossChunks) {
  const Data d = Generate(20000, 29, /*kinds=*/true);
  WorkerPool pool(4);
  const Outcome o = Chunked(d.rows, 4096, &pool, d.kinds);
  const auto skus = ByRow(o.issues, "DUPLICATE_SKU", "SKU is already used by row ");
  ASSERT_EQ(skus.size(), d.first_sku.size());
  for (auto [row, first] : d.first_sku) EXPECT_EQ(skus.at(row), std::to_string(first)) << row;
  const auto gtins =
      ByRow(o.issues, "DUPLICATE_GTIN", "GTIN is already used by another SKU in row ");
  ASSERT_GT(d.first_gtin.size(), 500u);
  ASSERT_EQ(gtins.size(), d.first_gtin.size());
  for (auto [row, first] : d.first_gtin) EXPECT_EQ(gtins.at(row), std::to_string(first)) << row;
  size_t image_rows = 0;
  for (size_t r = 0; r < d.kinds.size(); ++r) image_rows += d.kinds[r] == RowKind::kImage;
  ASSERT_GT(image_rows, 500u);
  for (const std::string& i : o.issues) {
    EXPECT_NE(d.kinds[std::stoull(i) - 1], RowKind::kImage) << i;
  }
  EXPECT_EQ(o.stats.rows, 20000u);
}

TEST(ParallelSession, KindsGiveTheOneThreadIssuesOnAnyThreadCount) {
  const Data d = Generate(12000, 31, /*kinds=*/true);
  for (size_t chunk : {4096u, 333u}) {
    const Outcome want = OneByOne(d.rows, chunk, d.kinds);
    for (size_t threads : {1u, 3u}) {
      SCOPED_TRACE("chunk " + std::to_string(chunk) + ", threads " + std::to_string(threads));
      WorkerPool pool(threads);
      const Outcome got = Chunked(d.rows, chunk, &pool, d.kinds);
      EXPECT_EQ(got.issues, want.issues);
      ExpectSameStats(got.stats, want.stats);
    }
  }
}

TEST(ParallelSession, AnyThreadCountAndChunkSizeGivesTheOneThreadIssues) {
  const Data d = Generate(20000, 3);
  for (size_t chunk : {4096u, 1000u, 333u, 64u}) {
    const Outcome want = OneByOne(d.rows, chunk);
    for (size_t threads : {1u, 2u, 3u, 8u}) {
      SCOPED_TRACE("chunk " + std::to_string(chunk) + ", threads " + std::to_string(threads));
      WorkerPool pool(threads);
      const Outcome got = Chunked(d.rows, chunk, &pool);
      ASSERT_EQ(got.issues.size(), want.issues.size());
      EXPECT_EQ(got.issues, want.issues);
      ExpectSameStats(got.stats, want.stats);
    }
  }
  // And with no pool at all.
  const Outcome want = OneByOne(d.rows, 4096);
  EXPECT_EQ(Chunked(d.rows, 4096, nullptr).issues, want.issues);
}

// Two sessions driven from two threads share one pool.
TEST(ParallelSession, SessionsSharingAPoolStayApart) {
  const Data a = Generate(8000, 21);
  const Data b = Generate(8000, 22);
  WorkerPool pool(3);
  Outcome got_a, got_b;
  std::thread other([&] { got_b = Chunked(b.rows, 500, &pool); });
  got_a = Chunked(a.rows, 700, &pool);
  other.join();
  EXPECT_EQ(got_a.issues, OneByOne(a.rows, 700).issues);
  EXPECT_EQ(got_b.issues, OneByOne(b.rows, 500).issues);
}

// Forces the first slice of each chunk to finish after the last one has started: row 0 waits
// until row n-1 has been read for evaluation (by another thread). The merge must still follow
// row order.
TEST(ParallelSession, SlicesFinishingOutOfOrderAreMergedInRowOrder) {
  const Data d = Generate(6000, 5);
  const size_t chunk = 2000;
  const Outcome want = OneByOne(d.rows, chunk);

  WorkerPool pool(2);
  Session s(ReferenceData::Default(), Spec(), &pool);
  std::vector<Issue> issues;
  const std::thread::id driver = std::this_thread::get_id();
  for (size_t begin = 0; begin < d.rows.size(); begin += chunk) {
    std::mutex mu;
    std::condition_variable cv;
    bool last_read = false;
    bool begun = false;  // read only by the driver thread
    Session::RowReader read = [&](size_t i, std::vector<std::string_view>& values) {
      const bool evaluating = std::this_thread::get_id() != driver || begun;  // not Observe()
      if (evaluating && i == chunk - 1) {
        std::lock_guard lock(mu);
        last_read = true;
        cv.notify_all();
      }
      if (evaluating && i == 0) {
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return last_read; });
      }
      values.assign(d.rows[begin + i].begin(), d.rows[begin + i].end());
    };
    s.BeginRows(chunk, read);
    begun = true;
    s.EndRows([&](Issue&& i) { issues.push_back(std::move(i)); });
  }
  s.Finish(issues);
  std::vector<std::string> got;
  for (const Issue& i : issues) got.push_back(Describe(i));
  EXPECT_EQ(got, want.issues);
  ExpectSameStats(s.stats(), want.stats);
}

// The next chunk begun before the current one ends, as a stream does: EndRows ends the oldest.
Outcome TwoOpen(const Rows& rows, const std::vector<size_t>& sizes, WorkerPool* pool) {
  Session s(ReferenceData::Default(), Spec(), pool);
  std::vector<Issue> issues;
  auto sink = [&](Issue&& i) { issues.push_back(std::move(i)); };
  size_t begin = 0;
  for (size_t c = 0; c < sizes.size(); ++c) {
    s.BeginRows(sizes[c], Reader(rows, begin));
    begin += sizes[c];
    if (c > 0) s.EndRows(sink);
  }
  if (!sizes.empty()) s.EndRows(sink);
  EXPECT_EQ(s.rows(), begin);
  s.Finish(issues);
  Outcome o;
  for (const Issue& i : issues) o.issues.push_back(Describe(i));
  o.stats = s.stats();
  return o;
}

// The reference for uneven chunks: each chunk observed, then its rows added one by one.
Outcome OneByOne(const Rows& rows, const std::vector<size_t>& sizes) {
  Session s(ReferenceData::Default(), Spec());
  std::vector<Issue> issues;
  std::vector<std::string_view> values;
  size_t begin = 0;
  for (size_t n : sizes) {
    for (size_t r = begin; r < begin + n; ++r) {
      values.assign(rows[r].begin(), rows[r].end());
      s.Observe(values);
    }
    for (size_t r = begin; r < begin + n; ++r) {
      values.assign(rows[r].begin(), rows[r].end());
      s.AddRow(values, issues);
    }
    begin += n;
  }
  s.Finish(issues);
  Outcome o;
  for (const Issue& i : issues) o.issues.push_back(Describe(i));
  o.stats = s.stats();
  return o;
}

// Each chunk is judged with the date order shown by the rows up to its own end, not the next
// one's (the data starts showing day-first dates past 60 % of its rows), and duplicates name
// the first row whichever open chunk it is in.
TEST(ParallelSession, TwoOpenChunksGiveTheOneThreadIssues) {
  const Data d = Generate(20000, 17);
  const std::vector<std::vector<size_t>> plans = {
      {4096, 4096, 4096, 4096, 3616},
      {1000, 0, 1, 7000, 0, 333, 11666},  // empty and one-row chunks between big ones
      {11999, 1, 8000},                   // the date order changes in the second-last chunk
  };
  for (const auto& sizes : plans) {
    const Outcome want = OneByOne(d.rows, sizes);
    for (size_t threads : {1u, 2u, 3u, 8u}) {
      SCOPED_TRACE("chunk sizes from " + std::to_string(sizes[0]) + ", threads " +
                   std::to_string(threads));
      WorkerPool pool(threads);
      const Outcome got = TwoOpen(d.rows, sizes, &pool);
      ASSERT_EQ(got.issues.size(), want.issues.size());
      EXPECT_EQ(got.issues, want.issues);
      ExpectSameStats(got.stats, want.stats);
    }
  }
  EXPECT_EQ(TwoOpen(d.rows, {5000, 15000}, nullptr).issues, OneByOne(d.rows, {5000, 15000}).issues);
}

// Forces the next chunk to be wholly evaluated before the current one's first slice: row 0 of
// chunks 0 and 2 waits until the last row of the chunk after it has been read for evaluation.
// The merge must still apply the current chunk first (the duplicates name earlier rows).
//
// Who may wait, so that some other thread can always read the row waited for:
// - Only every other chunk waits. A thread waiting in chunk c holds up chunk c's merge, so chunk
//   c + 2 cannot begin; a second thread waiting in chunk c + 1 for it would never wake (with two
//   threads, nobody would be left to evaluate anything).
// - The driving thread waits only once the next chunk is begun. Before that it may be in the
//   EndRows of the chunk before, evaluating this chunk's slices ahead, and it is the one thread
//   that begins the next chunk.
TEST(ParallelSession, ANextChunkFinishedFirstIsMergedAfterTheCurrentOne) {
  const Data d = Generate(8000, 19);
  const size_t chunk = 2000, chunks = 4;
  const Outcome want = OneByOne(d.rows, chunk);
  const std::thread::id driver = std::this_thread::get_id();
  for (size_t threads : {2u, 3u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    WorkerPool pool(threads);
    Session s(ReferenceData::Default(), Spec(), &pool);
    struct Gate {
      std::mutex mu;
      std::condition_variable cv;
      bool next_read = false;  // the next chunk's last row was read
      std::atomic<bool> next_begun{false};
    };
    std::vector<Gate> gates(chunks);
    std::atomic<int> next_first{0};  // gated chunks whose row 0 came after the next chunk's end
    auto gated = [&](size_t c) { return c % 2 == 0 && c + 1 < chunks; };
    auto begin_chunk = [&](size_t c) {
      const size_t first = c * chunk;
      Session::RowReader read = [&, c, first](size_t i, std::vector<std::string_view>& values) {
        if (i == chunk - 1 && c > 0 && gated(c - 1)) {
          std::lock_guard lock(gates[c - 1].mu);
          gates[c - 1].next_read = true;
          gates[c - 1].cv.notify_all();
        }
        if (i == 0 && gated(c) &&
            (std::this_thread::get_id() != driver || gates[c].next_begun.load())) {
          std::unique_lock lock(gates[c].mu);
          gates[c].cv.wait(lock, [&] { return gates[c].next_read; });
          ++next_first;
        }
        values.assign(d.rows[first + i].begin(), d.rows[first + i].end());
      };
      // Observed through another reader, so that every call of `read` is an evaluation.
      const dates::DateOrder observed = s.ObserveRows(chunk, Reader(d.rows, first));
      s.BeginRows(chunk, read, observed);
      if (c > 0) gates[c - 1].next_begun.store(true);
    };
    std::vector<Issue> issues;
    auto sink = [&](Issue&& i) { issues.push_back(std::move(i)); };
    begin_chunk(0);
    for (size_t c = 1; c < chunks; ++c) {
      begin_chunk(c);
      s.EndRows(sink);
    }
    s.EndRows(sink);
    s.Finish(issues);
    std::vector<std::string> got;
    for (const Issue& i : issues) got.push_back(Describe(i));
    EXPECT_EQ(got, want.issues);
    ExpectSameStats(s.stats(), want.stats);
    // The case this test is about did happen: always for chunk 0, whose rows the driving thread
    // reads only after beginning chunk 1; for chunk 2 unless the driving thread read its row 0
    // ahead, before chunk 3 was begun.
    EXPECT_GE(next_first.load(), 1);
  }
}

TEST(ParallelSession, EmptyChunksAndSingleRowsAreFine) {
  const Data d = Generate(300, 9);
  WorkerPool pool(2);
  Session s(ReferenceData::Default(), Spec(), &pool);
  std::vector<Issue> issues;
  s.AddRows(0, Reader(d.rows, 0), issues);
  for (size_t r = 0; r < d.rows.size(); ++r) s.AddRows(1, Reader(d.rows, r), issues);
  s.AddRows(0, Reader(d.rows, 0), issues);
  s.Finish(issues);
  std::vector<std::string> got;
  for (const Issue& i : issues) got.push_back(Describe(i));
  EXPECT_EQ(got, OneByOne(d.rows, 1).issues);
  EXPECT_EQ(s.rows(), 300u);
}

// A session destroyed between BeginRows and EndRows (an error path) waits for the pool, with one
// or two chunks open.
TEST(ParallelSession, DestroyingAnOpenChunkWaitsForThePool) {
  const Data d = Generate(5000, 13);
  WorkerPool pool(4);
  for (int k = 0; k < 5; ++k) {
    Session s(ReferenceData::Default(), Spec(), &pool);
    s.BeginRows(d.rows.size(), Reader(d.rows, 0));
  }
  for (int k = 0; k < 5; ++k) {  // two chunks open
    Session s(ReferenceData::Default(), Spec(), &pool);
    s.BeginRows(2500, Reader(d.rows, 0));
    s.BeginRows(2500, Reader(d.rows, 2500));
  }
  for (int k = 0; k < 5; ++k) {  // the first of two ended
    Session s(ReferenceData::Default(), Spec(), &pool);
    s.BeginRows(2500, Reader(d.rows, 0));
    s.BeginRows(2500, Reader(d.rows, 2500));
    s.EndRows([](Issue&&) {});
  }
  // The pool still serves new sessions.
  EXPECT_EQ(Chunked(d.rows, 1000, &pool).issues, OneByOne(d.rows, 1000).issues);
}

TEST(WorkerPool, RunTasksRunsEachTaskOnceBeforeItReturns) {
  for (size_t threads : {1u, 2u, 4u}) {
    WorkerPool pool(threads);
    for (size_t n : {0u, 1u, 2u, 7u, 1000u}) {
      std::vector<std::atomic<int>> runs(n);
      RunTasks(&pool, n, [&](size_t k) { runs[k].fetch_add(1); });
      for (size_t k = 0; k < n; ++k) ASSERT_EQ(runs[k].load(), 1) << threads << " " << n << " " << k;
    }
  }
  std::vector<int> runs(5, 0);
  RunTasks(nullptr, runs.size(), [&](size_t k) { ++runs[k]; });
  EXPECT_EQ(runs, std::vector<int>(5, 1));
}

// Outliers of a large batch, whose fences are worked out on the pool, are those of one thread:
// categories with and without fences of their own, rows without a category, many ties.
TEST(ParallelSession, PooledFencesFindTheOneThreadOutliers) {
  std::mt19937_64 rng(23);
  PriceOutliers prices;
  const std::string categories[] = {"", "A", "B", "C", "Small", "D"};
  const size_t n = PriceOutliers::kPooledSamples * 3 / 2;
  for (uint64_t row = 1; row <= n; ++row) {
    const std::string& category = categories[rng() % 6];
    if (category == "Small" && rng() % 5000 != 0) continue;  // ~20 rows: judged over the batch
    double price = static_cast<double>(10 + rng() % 40) + static_cast<double>(rng() % 4) / 4;
    if (rng() % 200 == 0) price *= 50;
    prices.Add(row, price, 2, category);
  }
  ASSERT_GE(prices.size(), PriceOutliers::kPooledSamples);
  auto describe = [](std::vector<std::string>& out) {
    return [&out](const PriceOutliers::Outlier& o) {
      out.push_back(std::to_string(o.row) + "|" + std::to_string(o.price) + "|" +
                    std::string(o.category) + "|" + std::to_string(o.fences.q1) + "|" +
                    std::to_string(o.fences.q3) + "|" + (o.high ? "high" : "low"));
    };
  };
  std::vector<std::string> want;
  prices.Find(describe(want));
  ASSERT_GT(want.size(), 100u);
  for (size_t threads : {2u, 3u}) {
    WorkerPool pool(threads);
    std::vector<std::string> got;
    prices.Find(describe(got), &pool);
    EXPECT_EQ(got, want) << threads;
  }
}

}  // namespace
}  // namespace dq::validator
