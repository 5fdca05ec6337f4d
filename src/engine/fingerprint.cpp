// The job fingerprint builder (engine/fingerprint.hpp).
#include "pcount/engine/fingerprint.hpp"

#include <cstdio>
#include <string>
#include <utility>

namespace pcount::engine {

std::string_view program_version() { return PCOUNT_VERSION; }

std::string fingerprint_prefix() {
  std::string prefix = "pcount/";
  prefix.append(program_version());
  prefix.push_back(' ');
  return prefix;
}

Fingerprint::Fingerprint(std::string_view problem) : text_(fingerprint_prefix() + std::string(problem)) {}

Fingerprint& Fingerprint::add(std::string_view name, std::string_view value) {
  text_ += ' ';
  text_ += name;
  text_ += '=';
  text_ += value;
  return *this;
}

Fingerprint Fingerprint::extending(std::string started) {
  Fingerprint f;
  f.text_ = std::move(started);
  return f;
}

Fingerprint& Fingerprint::add_hex(std::string_view name, std::uint64_t digest) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(digest));
  return add(name, std::string_view(hex, 16));
}

Fingerprint& Fingerprint::flag(std::string_view word) {
  text_ += ' ';
  text_ += word;
  return *this;
}

std::optional<std::string> fingerprint_field(std::string_view fingerprint, std::string_view name) {
  std::string key(1, ' ');
  key.append(name);
  key.push_back('=');
  const std::size_t at = fingerprint.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  const std::size_t from = at + key.size();
  const std::size_t end = fingerprint.find(' ', from);
  return std::string(fingerprint.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from));
}

}  // namespace pcount::engine
