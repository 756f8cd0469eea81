#include "mailer.h"

#include <chrono>
#include <cstdio>
#include <fstream>

#include "dq/common/crypto.h"
#include "dq/common/log.h"
#include "dq/common/time_format.h"

namespace dq::gateway {

Status LogMailer::Send(const MailMessage& message) {
  log::Info("mail (DQ_MAIL_TRANSPORT=log)",
            {{"to", message.to}, {"subject", message.subject}, {"text", message.text}});
  return Status::Ok();
}

Status FileMailer::Send(const MailMessage& message) {
  const auto now = std::chrono::system_clock::now();
  const std::string name = std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                              now.time_since_epoch())
                                              .count()) +
                           "-" + RandomBase62(12);
  const std::string tmp = dir_ + "/." + name + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << "From: " << from_ << "\r\nTo: " << message.to << "\r\nSubject: " << message.subject
        << "\r\nDate: " << FormatIso8601Millis(now)
        << "\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        << message.text;
    if (!out) {
      return Status(ErrorCode::kUnavailable, "mail could not be written to " + dir_);
    }
  }
  // Whole files only: a relay never sees one half written.
  if (std::rename(tmp.c_str(), (dir_ + "/" + name + ".eml").c_str()) != 0) {
    std::remove(tmp.c_str());
    return Status(ErrorCode::kUnavailable, "mail could not be written to " + dir_);
  }
  return Status::Ok();
}

}  // namespace dq::gateway
