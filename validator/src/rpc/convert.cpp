#include "convert.h"

#include <string>
#include <utility>
#include <vector>

namespace dq::validator::rpc {

Result<BatchSpec> FromProto(const v1::BatchSpec& spec) {
  const int indexed = spec.fields_size() + spec.extra_columns_size();
  if (!spec.value_index().empty() && spec.value_index_size() != indexed) {
    return Status(ErrorCode::kInvalidRequest,
                  "value_index has " + std::to_string(spec.value_index_size()) +
                      " entries for " + std::to_string(spec.fields_size()) + " fields" +
                      (spec.extra_columns_size() == 0
                           ? std::string()
                           : " and " + std::to_string(spec.extra_columns_size()) +
                                 " extra columns"));
  }
  std::vector<std::string> fields(spec.fields().begin(), spec.fields().end());
  std::vector<std::string> checks(spec.check_types().begin(), spec.check_types().end());
  auto out = BatchSpec::Make(fields, checks, spec.platform());
  if (!out.ok()) return out;
  if (Status s = out->SetWeightUnit(spec.weight_unit()); !s.ok()) return s;
  if (Status s = out->SetExpiryDateOrder(spec.expiry_date_order()); !s.ok()) return s;
  out->source = spec.source();
  out->gtin_padding_evidence = spec.gtin_padding_evidence();
  for (const v1::FieldConvention& c : spec.conventions()) {
    std::vector<std::pair<std::string, std::string>> aliases(c.value_aliases().begin(),
                                                             c.value_aliases().end());
    std::vector<std::string> extensions(c.file_extensions().begin(), c.file_extensions().end());
    if (Status s = out->AddConvention(c.field(), c.list_separator(), std::move(aliases),
                                      c.own_number_format(), std::move(extensions));
        !s.ok()) {
      return s;
    }
    if (c.html()) out->conventions[static_cast<size_t>(*ParseField(c.field()))].html = true;
    if (c.may_be_empty()) {
      out->conventions[static_cast<size_t>(*ParseField(c.field()))].may_be_empty = true;
    }
    const Field f = *ParseField(c.field());
    if (c.zero_is_empty()) out->zero_is_empty.set(static_cast<size_t>(f));
    FieldConvention& conv = out->conventions[static_cast<size_t>(f)];
    conv.renamed_file_names = c.renamed_file_names();
    if (Status s = out->SetEmptyValues(
            conv, std::vector<std::string>(c.empty_values().begin(), c.empty_values().end()), f);
        !s.ok()) {
      return s;
    }
  }
  for (const v1::ExtraColumn& e : spec.extra_columns()) {
    std::vector<std::string> extensions(e.file_extensions().begin(), e.file_extensions().end());
    if (Status s = out->AddExtraColumn(e.field(), e.column(), e.list_separator(),
                                       std::move(extensions));
        !s.ok()) {
      return s;
    }
    FieldConvention& conv = out->extras.back().convention;
    conv.renamed_file_names = e.renamed_file_names();
    if (Status s = out->SetEmptyValues(
            conv, std::vector<std::string>(e.empty_values().begin(), e.empty_values().end()),
            std::nullopt);
        !s.ok()) {
      return s;
    }
  }
  return out;
}

namespace {

// Everything but the texts ToProto copies or moves: row, severity, field, code, channels.
void SetPlain(const Issue& issue, v1::Issue* out, bool channel_bits) {
  out->set_row(issue.row);
  out->set_severity(issue.severity() == Severity::kError ? v1::SEVERITY_ERROR
                                                         : v1::SEVERITY_WARNING);
  out->set_field(std::string(FieldName(issue.field)));
  out->set_code(std::string(Def(issue.code).code));
  if (const ChannelMask blocks = issue.blocks()) {
    // ChannelBit(p) is bit p - 1, p counting dq::kPlatforms from 1: the wire's bit order.
    static_assert(ChannelBit(static_cast<Platform>(1)) == 1);
    if (channel_bits) {
      out->set_channel_bits(blocks);
      return;
    }
    for (size_t p = 1; p <= kPlatforms.size(); ++p) {
      if (blocks & ChannelBit(static_cast<Platform>(p))) out->add_channels(std::string(kPlatforms[p - 1]));
    }
  }
}

}  // namespace

void ToProto(const Issue& issue, v1::Issue* out, bool channel_bits) {
  SetPlain(issue, out, channel_bits);
  out->set_message(std::string(issue.Message()));
  out->set_original_value(issue.original);
  if (issue.fixed) out->set_fixed_value(*issue.fixed);
}

void ToProto(Issue&& issue, v1::Issue* out, bool channel_bits) {
  SetPlain(issue, out, channel_bits);
  if (issue.message.empty()) {
    out->set_message(std::string(Def(issue.code).message));
  } else {
    out->set_message(std::move(issue.message));
  }
  out->set_original_value(std::move(issue.original));
  if (issue.fixed) out->set_fixed_value(std::move(*issue.fixed));
}

void ToProto(const Stats& stats, v1::Stats* out) {
  out->set_rows(stats.rows);
  out->set_errors(stats.errors);
  out->set_warnings(stats.warnings);
  out->set_fixes(stats.fixes);
  out->set_score(stats.score);
  out->set_rows_error(stats.rows_error);
  out->set_rows_warning(stats.rows_warning);
  out->set_rows_fixed(stats.rows_fixed);
  for (const ChannelStats& c : stats.channels) {
    v1::ChannelStats* ch = out->add_channels();
    ch->set_platform(std::string(PlatformName(c.platform)));
    ch->set_ready(c.ready);
    ch->set_blocked(c.blocked);
    ch->set_score(c.score);
    ch->set_rows_warning(c.rows_warning);
    for (const ChannelStats::Blocker& b : c.top_blockers) {
      v1::CodeRows* r = ch->add_top_blockers();
      r->set_code(std::string(Def(b.code).code));
      r->set_rows(b.rows);
    }
  }
}

grpc::Status ToGrpcStatus(const Status& status) {
  switch (status.code()) {
    case ErrorCode::kOk: return grpc::Status::OK;
    case ErrorCode::kInvalidRequest:
    case ErrorCode::kInvalidJson:
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, status.message());
    case ErrorCode::kNotFound: return grpc::Status(grpc::StatusCode::NOT_FOUND, status.message());
    case ErrorCode::kUnavailable:
      return grpc::Status(grpc::StatusCode::UNAVAILABLE, status.message());
    case ErrorCode::kPayloadTooLarge:  // an answer too large to carry (ValidateBatch)
      return grpc::Status(grpc::StatusCode::OUT_OF_RANGE, status.message());
    default: return grpc::Status(grpc::StatusCode::INTERNAL, status.message());
  }
}

}  // namespace dq::validator::rpc
