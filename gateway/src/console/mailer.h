// Mail the console sends: the sign-up verification link, and the notice to an address's owner
// when someone signs up with it again.
//
// Two transports ship (DQ_MAIL_TRANSPORT): `log` writes each message to the gateway's log (the
// default, for development: `./dev up` and the tests need no mail server), `file` writes each
// message as one RFC 5322 file (.eml) into DQ_MAIL_DIR, for a mail relay to pick up (for
// instance a sidecar that hands the files to sendmail or msmtp and deletes them). To send
// through SMTP from the gateway itself, implement Mailer (e.g. with libcurl's smtp:// support)
// and wire it in SelfService; docs/console.md, "Mail".
#pragma once

#include <string>

#include "dq/common/status.h"

namespace dq::gateway {

struct MailMessage {
  std::string to;
  std::string subject;
  std::string text;  // plain text, UTF-8
};

class Mailer {
 public:
  virtual ~Mailer() = default;
  // Errors: kUnavailable when the message could not be handed over. Thread-safe.
  virtual Status Send(const MailMessage& message) = 0;
};

class LogMailer final : public Mailer {
 public:
  Status Send(const MailMessage& message) override;
};

class FileMailer final : public Mailer {
 public:
  FileMailer(std::string dir, std::string from) : dir_(std::move(dir)), from_(std::move(from)) {}
  // Writes <dir>/<time>-<random>.eml (From, To, Subject, Date, Content-Type headers, the text).
  Status Send(const MailMessage& message) override;

 private:
  std::string dir_;
  std::string from_;
};

}  // namespace dq::gateway
