// Input for the engine benchmark and engine_check: gen_catalog.py-like rows generated in
// process (same shapes, value ranges and columns as ../shared/tools/gen_catalog.py with
// --defects 0), or a CSV file written by gen_catalog.py. Deterministic for a given seed.
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace dq::bench {

// The standard fields of gen_catalog.py's columns, in its column order.
extern const std::vector<std::string> kProductFields;
extern const std::vector<std::string> kCustomerFields;
const std::vector<std::string> kProductFields = {
    "sku",        "title",     "description",   "price",       "compare_at_price",
    "cost_price", "currency",  "availability",  "image_url",   "brand",
    "category",   "gtin",      "weight",        "hs_code",     "country_of_origin",
    "vat_number", "stock_qty", "reorder_point", "expiry_date", "warehouse_id"};
const std::vector<std::string> kCustomerFields = {"email", "phone", "country"};

using Rows = std::vector<std::vector<std::string>>;

namespace {

template <typename T, size_t N>
const T& Pick(std::mt19937_64& rng, const std::array<T, N>& a) {
  return a[std::uniform_int_distribution<size_t>(0, N - 1)(rng)];
}
int RandInt(std::mt19937_64& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}
double Uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
std::string Fixed2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f", v);
  return buf;
}

std::string Gtin13(std::mt19937_64& rng) {
  std::string body = "4";
  for (int i = 0; i < 11; ++i) body.push_back(static_cast<char>('0' + RandInt(rng, 0, 9)));
  int total = 0;
  for (size_t i = 0; i < body.size(); ++i) total += (body[i] - '0') * (i % 2 ? 3 : 1);
  body.push_back(static_cast<char>('0' + (10 - total % 10) % 10));
  return body;
}

}  // namespace

Rows GenerateProducts(size_t n, uint64_t seed) {
  static const std::array<std::string, 8> kBrands = {"Acme",     "Nordwind", "Kirei",  "Solace",
                                                     "Tamarind", "Orbit",    "Hanami", "Verdant"};
  static const std::array<std::string, 14> kNouns = {
      "Mug",      "T-Shirt",    "Backpack",   "Desk Lamp", "Yoga Mat", "Water Bottle", "Sneakers",
      "Notebook", "Headphones", "Phone Case", "Scarf",     "Teapot",   "Candle",       "Wallet"};
  static const std::array<std::string, 8> kAdj = {"Classic", "Organic", "Premium", "Lightweight",
                                                  "Vintage", "Eco",     "Compact", "Deluxe"};
  static const std::array<std::string, 6> kCategories = {
      "Home & Garden", "Apparel", "Electronics", "Sports", "Stationery", "Beauty"};
  static const std::array<std::string, 6> kCurrencies = {"USD", "EUR", "GBP", "TWD", "JPY", "SGD"};
  static const std::array<std::string, 12> kCountries = {"US", "DE", "FR", "GB", "TW", "JP",
                                                         "CN", "VN", "IT", "ES", "NL", "SG"};
  static const std::array<std::string, 8> kHs = {"6109100010", "420292", "940520", "950691",
                                                 "392410",     "851830", "640411", "482010"};
  static const std::array<std::string, 4> kAvailability = {"in_stock", "in_stock", "out_of_stock",
                                                           "preorder"};
  static const std::array<std::string, 3> kSites = {"TPE", "FRA", "NYC"};
  auto vat = [](const std::string& c) -> std::string {
    if (c == "DE") return "DE136695976";
    if (c == "FR") return "FR40303265045";
    if (c == "NL") return "NL004495445B01";
    if (c == "IT") return "IT00743110157";
    if (c == "ES") return "ESA28017895";
    if (c == "GB") return "GB980780684";
    return "";
  };
  std::mt19937_64 rng(seed);
  Rows rows;
  rows.reserve(n);
  char sku[32];
  for (size_t i = 1; i <= n; ++i) {
    const std::string& brand = Pick(rng, kBrands);
    const std::string title = brand + " " + Pick(rng, kAdj) + " " + Pick(rng, kNouns);
    const double price = std::round(Uniform(rng, 3, 400) * 100) / 100;
    const double cost = std::round(price * Uniform(rng, 0.3, 0.8) * 100) / 100;
    const std::string country = Pick(rng, kCountries);
    std::snprintf(sku, sizeof(sku), "SKU-%08zu", i);
    std::string expiry;
    if (Uniform(rng, 0, 1) < 0.2) {
      char buf[16];
      std::snprintf(buf, sizeof(buf), "20%d-%02d-%02d", RandInt(rng, 27, 30), RandInt(rng, 1, 12),
                    RandInt(rng, 1, 28));
      expiry = buf;
    }
    rows.push_back({sku,
                    title,
                    "<p>" + title + ". Made with care, ships in 2 days.</p>",
                    Fixed2(price),
                    Uniform(rng, 0, 1) < 0.4 ? Fixed2(price * Uniform(rng, 1.05, 1.6)) : "",
                    Fixed2(cost),
                    Pick(rng, kCurrencies),
                    Pick(rng, kAvailability),
                    "https://cdn.example.com/img/" + std::to_string(i) + ".jpg",
                    brand,
                    Pick(rng, kCategories),
                    Gtin13(rng),
                    std::to_string(RandInt(rng, 20, 5000)),
                    Pick(rng, kHs),
                    country,
                    vat(country),
                    std::to_string(RandInt(rng, 0, 900)),
                    std::to_string(RandInt(rng, 5, 50)),
                    expiry,
                    "WH-" + Pick(rng, kSites) + "-" + std::to_string(RandInt(rng, 1, 9))});
  }
  return rows;
}

// Distinct phone numbers, as gen_catalog.py --phones unique (its default) draws them: ranges
// libphonenumber 8.12.57 holds valid, written internationally with spaces and hyphens. With
// 200,000 rows almost every number is new, so the per-session cache does not help.
namespace {
std::string UniquePhone(std::mt19937_64& rng, const std::string& c) {
  static const std::array<int, 10> kUsAreas = {212, 415, 646, 303, 617, 206, 512, 702, 305, 312};
  char phone[64];
  if (c == "US") {
    int exchange = 11;
    while (exchange % 100 == 11) exchange = RandInt(rng, 200, 999);
    std::snprintf(phone, sizeof(phone), "+1 %d-%03d-%04d", Pick(rng, kUsAreas), exchange,
                  RandInt(rng, 0, 9999));
  } else if (c == "DE") {
    if (RandInt(rng, 0, 1)) {
      std::snprintf(phone, sizeof(phone), "+49 30 %08d", RandInt(rng, 10000000, 99999999));
    } else {
      std::snprintf(phone, sizeof(phone), "+49 17%d %07d", RandInt(rng, 0, 9),
                    RandInt(rng, 0, 9999999));
    }
  } else if (c == "FR") {
    const bool mobile = RandInt(rng, 0, 1);
    std::snprintf(phone, sizeof(phone), "+33 %d %d%d %02d %02d %02d", mobile ? 7 : 1,
                  mobile ? RandInt(rng, 5, 8) : RandInt(rng, 4, 9), RandInt(rng, 0, 9),
                  RandInt(rng, 0, 99), RandInt(rng, 0, 99), RandInt(rng, 0, 99));
  } else if (c == "GB") {
    std::snprintf(phone, sizeof(phone), "+44 20 7%03d %04d", RandInt(rng, 0, 999),
                  RandInt(rng, 0, 9999));
  } else if (c == "TW") {
    std::snprintf(phone, sizeof(phone), "+886 9%02d %03d %03d", RandInt(rng, 0, 99),
                  RandInt(rng, 0, 999), RandInt(rng, 0, 999));
  } else {  // JP
    std::snprintf(phone, sizeof(phone), "+81 %d0 %04d %04d", RandInt(rng, 7, 9),
                  RandInt(rng, 1000, 9999), RandInt(rng, 0, 9999));
  }
  return phone;
}
}  // namespace

Rows GenerateCustomers(size_t n, uint64_t seed) {
  static const std::array<std::string, 6> kCountries = {"US", "DE", "FR", "GB", "TW", "JP"};
  static const std::array<std::string, 6> kUsers = {"ana", "li", "tom", "yuki", "sam", "mia"};
  static const std::array<std::string, 6> kDomains = {"gmail.com",  "outlook.com", "yahoo.co.jp",
                                                      "example.de", "shop.fr",     "proton.me"};
  std::mt19937_64 rng(seed);
  Rows rows;
  rows.reserve(n);
  for (size_t i = 1; i <= n; ++i) {
    const std::string& c = Pick(rng, kCountries);
    const std::string email =
        Pick(rng, kUsers) + "." + std::to_string(i) + "@" + Pick(rng, kDomains);
    rows.push_back({email, UniquePhone(rng, c), c});
  }
  return rows;
}

// Reads a gen_catalog.py CSV (header row, RFC 4180 quoting, no newlines inside fields). The
// columns must be gen_catalog's, in its order.
Rows ReadCsv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  Rows rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted) {
        if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
          field.push_back('"');
          ++i;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.push_back(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        row.push_back(std::move(field));
        field.clear();
      } else {
        field.push_back(c);
      }
    }
    row.push_back(std::move(field));
    if (header) {
      header = false;
      continue;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace dq::bench
