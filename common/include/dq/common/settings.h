// Configuration, declared once as a table.
//
// Every setting of every dq component is one row of the table in settings.cpp: its environment
// name, default, range, the components that read it and a line of help. Loading, validation,
// `--help`-style listings and docs/configuration.md (checked by a test) all read that table.
// The same names are used by ./dev, docker-compose.yml and the Kubernetes manifests.
//
// Loading rejects a DQ_* variable that no component knows (a typo must not pass silently) and a
// value outside its range; both errors name the variable.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "dq/common/status.h"

namespace dq {

enum Component : uint8_t {
  kGateway = 1,
  kValidator = 2,
  kNotifier = 4,
  kDqctl = 8,
};

struct SettingSpec {
  std::string_view name;           // DQ_...
  std::string_view default_value;  // as text
  bool is_integer;                 // integers are range-checked
  int64_t min;
  int64_t max;
  uint8_t components;  // bitmask of Component
  bool secret;         // never logged
  std::string_view help;
};

// The whole table, in documentation order.
std::span<const SettingSpec> AllSettings();

class Settings {
 public:
  // Validates env (name -> value) for component. Unknown DQ_* names and bad values are
  // kInvalidRequest errors whose message names the variable.
  static Result<Settings> Load(Component component, const std::map<std::string, std::string>& env);
  // Load() over the process environment.
  static Result<Settings> FromEnvironment(Component component);

  // Typed reads. Asking for a name the component does not declare is a bug and aborts.
  int64_t Int(std::string_view name) const;
  const std::string& String(std::string_view name) const;

  // The values in effect, secrets masked, for the start-up log line.
  std::string Describe() const;

 private:
  std::map<std::string, std::string, std::less<>> values_;
  std::map<std::string, bool, std::less<>> secret_;
};

}  // namespace dq
