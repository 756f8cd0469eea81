// Runs a gen_catalog.py CSV through the rule engine and prints the issues per code: the by-hand
// check that clean files raise nothing and that every injected defect is caught.
//
//   engine_check products /tmp/p.csv [check_types] [platform]
//   engine_check customers /tmp/c.csv
//
// DQ_CHECK_VERBOSE=1 prints every issue too (row, code, field, value, fix, message, channels):
// the by-hand check that a change to the engine's speed leaves its answers the same.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "reference_data.h"
#include "session.h"

namespace dq::bench {
using Rows = std::vector<std::vector<std::string>>;
extern const std::vector<std::string> kProductFields;
extern const std::vector<std::string> kCustomerFields;
Rows ReadCsv(const std::string& path);
}  // namespace dq::bench

int main(int argc, char** argv) {
  using namespace dq::validator;
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s products|customers FILE.csv [check_types] [platform]\n",
                 argv[0]);
    return 2;
  }
  const bool products = std::string_view(argv[1]) == "products";
  const std::string checks =
      argc > 3 ? argv[3] : (products ? "product,price,inventory,shipping" : "customer");
  std::vector<std::string> check_list;
  for (size_t s = 0, e; s <= checks.size(); s = e + 1) {
    e = checks.find(',', s);
    if (e == std::string::npos) e = checks.size();
    check_list.push_back(checks.substr(s, e - s));
  }
  auto spec = BatchSpec::Make(products ? dq::bench::kProductFields : dq::bench::kCustomerFields,
                              check_list, argc > 4 ? argv[4] : "");
  if (!spec.ok()) {
    std::fprintf(stderr, "%s\n", spec.status().message().c_str());
    return 2;
  }
  const auto rows = dq::bench::ReadCsv(argv[2]);
  Session session(ReferenceData::Default(), *spec);
  std::vector<Issue> issues;
  for (const auto& r : rows) {
    std::vector<std::string_view> v(r.begin(), r.end());
    session.AddRow(v, issues);
  }
  session.Finish(issues);
  std::map<std::string, uint64_t> by_code;
  for (const Issue& i : issues) by_code[std::string(Def(i.code).code)]++;
  for (const auto& [code, n] : by_code)
    std::printf("%-28s %llu\n", code.c_str(), static_cast<unsigned long long>(n));
  const Stats st = session.stats();
  std::printf(
      "rows=%llu errors=%llu warnings=%llu fixes=%llu rows_error=%llu "
      "rows_warning=%llu rows_fixed=%llu score=%u\n",
      (unsigned long long)st.rows, (unsigned long long)st.errors, (unsigned long long)st.warnings,
      (unsigned long long)st.fixes, (unsigned long long)st.rows_error,
      (unsigned long long)st.rows_warning, (unsigned long long)st.rows_fixed, st.score);
  if (std::getenv("DQ_CHECK_VERBOSE")) {
    for (const Issue& i : issues) {
      std::printf("%llu %s %s '%s'%s%s [%s] channels=%u\n", (unsigned long long)i.row,
                  std::string(Def(i.code).code).c_str(), std::string(FieldName(i.field)).c_str(),
                  i.original.c_str(), i.fixed ? " -> " : "", i.fixed ? i.fixed->c_str() : "",
                  std::string(i.Message()).c_str(), static_cast<unsigned>(i.channels));
    }
  }
  return 0;
}
