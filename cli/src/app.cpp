#include "app.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

#include "check.h"
#include "dq/report/check_options.h"
#include "progress.h"
#include "text_report.h"

namespace dq::offline {
namespace {

struct Flags {
  std::string file;
  std::string name;
  std::string checks = "product";
  std::string platform;
  std::string source;
  std::string weight_unit;
  std::string mapping;
  std::string format = "text";
  std::string cleaned;
  std::string fail_on = "error";
  std::string formulas = "neutralise";
  size_t threads = 0;
  int64_t max_issues = report::OutputOptions{}.max_stored_issues;
  bool no_progress = false;
};

int Usage(const Io& io, const std::string& message) {
  *io.err << "dq: " << message << "\n";
  return kExitUsage;
}

// The reasons a problem has, one a line (the details of a kInvalidRequest), else its message.
std::string Explain(const Status& s) {
  if (s.details().size() <= 1) return s.message();
  std::string out = s.message();
  for (const auto& d : s.details()) out += "\n  " + d.field + ": " + d.message;
  return out;
}

// The deepest nesting of arrays and objects in a JSON text (strings skipped), to refuse a
// mapping that nests too deeply before a recursive parser reads it.
size_t NestingDepth(std::string_view text) {
  size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

// --checks, --platform and --mapping, checked as the API checks them.
Result<report::CheckRequest> Request(const Flags& f, const Io& io) {
  report::CheckRequest r;
  auto checks = report::ParseCheckTypes(f.checks);
  if (!checks.ok()) return checks.status();
  r.check_types = std::move(*checks);
  r.platform = f.platform;
  if (!r.platform.empty()) {
    if (Status s = report::CheckPlatform(r.platform); !s.ok()) return s;
  }
  r.source = f.source;
  if (!r.source.empty()) {
    if (Status s = report::CheckSource(r.source); !s.ok()) return s;
  }
  r.weight_unit = f.weight_unit;
  if (!r.weight_unit.empty()) {
    if (Status s = report::CheckWeightUnit(r.weight_unit); !s.ok()) return s;
  }
  if (!f.mapping.empty()) {
    std::string text = f.mapping;
    if (text[0] == '@') {
      auto read = io.read(text.substr(1));
      if (!read.ok()) return read.status();
      text = std::move(*read);
    }
    auto invalid = [](const std::string& why) {
      return Status(ErrorCode::kInvalidRequest, "mapping: " + why, {{"mapping", why}});
    };
    if (NestingDepth(text) > 2) return invalid("nests too deeply; send a flat JSON object");
    nlohmann::json m = nlohmann::json::parse(text, nullptr, false);
    if (m.is_discarded()) {
      return invalid("is not valid JSON; send a JSON object such as {\"sku\": \"Variant SKU\"}");
    }
    auto mapping = report::ParseMapping(m);
    if (!mapping.ok()) return mapping.status();
    r.mapping = std::move(*mapping);
  }
  return r;
}

int Check(const Flags& f, const Io& io) {
  auto request = Request(f, io);
  if (!request.ok()) return Usage(io, Explain(request.status()));
  auto bytes = io.read(f.file);
  if (!bytes.ok()) return Usage(io, bytes.status().message());
  std::ostream* cleaned = nullptr;
  if (!f.cleaned.empty()) {
    std::string error;
    cleaned = io.open_out(f.cleaned, &error);
    if (cleaned == nullptr) return Usage(io, error);
  }

  CheckInput in;
  in.name = f.file == "-" ? f.name : (f.name.empty() ? f.file : f.name);
  in.bytes = *bytes;
  in.request = std::move(*request);
  in.threads = f.threads > 0 ? f.threads : std::max<size_t>(1, io.cpus);
  in.max_issues = f.max_issues;
  ProgressMeter meter(*io.err, io.err_is_terminal && !f.no_progress);
  in.progress = [&meter](uint64_t done, uint64_t total) { meter.Update(done, total); };
  auto outcome = RunCheck(in);
  meter.Finish();
  const std::string shown = f.file == "-" ? f.name : f.file;
  if (!outcome.ok()) return Usage(io, (shown.empty() ? "" : shown + ": ") + Explain(outcome.status()));

  if (f.format == "json") {
    WriteJson(*outcome, in.name, *io.out);
  } else if (f.format == "csv") {
    WriteCsv(*outcome, *io.out);
  } else {
    WriteTextReport(*outcome, shown, *io.out);
  }
  io.out->flush();
  if (cleaned != nullptr) {
    const auto formulas = f.formulas == "keep" ? ingest::FormulaCells::kKeep
                                               : ingest::FormulaCells::kNeutralise;
    if (Status s = WriteCleaned(*outcome, *cleaned, formulas); !s.ok()) {
      return Usage(io, s.message());
    }
    cleaned->flush();
    if (!*cleaned) return Usage(io, f.cleaned + ": could not be written");
  }
  const auto& st = outcome->stats;
  const bool fail = (f.fail_on == "error" && st.errors() > 0) ||
                    (f.fail_on == "warning" && st.errors() + st.warnings() > 0);
  return fail ? kExitIssues : kExitClean;
}

}  // namespace

int Run(const std::vector<std::string>& args, const Io& io) {
  Flags f;
  CLI::App app("dq: check a product, customer, shipping, inventory or price file locally, with "
               "the service's own readers and rules (no server, no network)",
               "dq");
  app.set_version_flag("--version", std::string(DQ_VERSION));
  app.require_subcommand(1);
  CLI::App* check = app.add_subcommand("check", "Check one file and report its issues");
  check->add_option("FILE", f.file, "The file (CSV, TSV, JSON, NDJSON, XLSX, gzipped or not), "
                                    "or - for standard input")
      ->required();
  check->add_option("--checks", f.checks,
                    "Check types, comma-separated: product, customer, shipping, inventory, price")
      ->capture_default_str();
  check->add_option("--platform", f.platform,
                    "A target platform's template (see docs/api.md)");
  check->add_option("--source", f.source,
                    "The platform the file was exported from (as the API's source); detected "
                    "from the header and the first rows when absent");
  check->add_option("--weight-unit", f.weight_unit,
                    "The unit of bare numbers in the weight column: g, kg, lb or oz");
  check->add_option("--mapping", f.mapping,
                    "Standard field to column, as JSON ({\"sku\": \"Variant SKU\"}) or @FILE; "
                    "inferred from the header when absent");
  check->add_option("--format", f.format, "What to print: text (a report), json, csv")
      ->check(CLI::IsMember({"text", "json", "csv"}))
      ->capture_default_str();
  check->add_option("--cleaned", f.cleaned, "Write the cleaned file to OUT (the input's format)");
  check->add_option("--formulas", f.formulas,
                    "CSV/TSV cells of the cleaned file that start like a formula (=, +, -, @): "
                    "neutralise (a leading ', as the download) or keep")
      ->check(CLI::IsMember({"neutralise", "keep"}))
      ->capture_default_str();
  check->add_option("--fail-on", f.fail_on,
                    "Exit 1 when issues of this severity or worse were found: error, warning, "
                    "none")
      ->check(CLI::IsMember({"error", "warning", "none"}))
      ->capture_default_str();
  check->add_option("--name", f.name,
                    "The file name to show and to read the format from (for standard input)");
  check->add_option("--threads", f.threads, "Evaluation threads (default: the CPUs available)")
      ->check(CLI::Range(1, 256));
  check->add_option("--max-issues", f.max_issues,
                    "Issues listed by --format json|csv, at most (counts stay exact)")
      ->check(CLI::Range(int64_t{1}, int64_t{100000000}))
      ->capture_default_str();
  check->add_flag("--no-progress", f.no_progress, "Never show progress on standard error");
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses from the back
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, *io.out, *io.err);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e, *io.out, *io.err);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e, *io.out, *io.err);
  } catch (const CLI::ParseError& e) {
    *io.err << "dq: " << e.what() << "\n";
    *io.err << "Run 'dq check --help' for the options.\n";
    return kExitUsage;
  }
  return Check(f, io);
}

}  // namespace dq::offline
