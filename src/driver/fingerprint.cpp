// The fingerprint builder of driver/problem.hpp.
#include <string>

#include "pcount/driver/problem.hpp"

namespace pcount::driver {

Fingerprint::Fingerprint(std::string_view problem) : text_(fingerprint_prefix() + std::string(problem)) {}

Fingerprint& Fingerprint::add(std::string_view name, std::string_view value) {
  text_ += ' ';
  text_ += name;
  text_ += '=';
  text_ += value;
  return *this;
}

Fingerprint& Fingerprint::flag(std::string_view word) {
  text_ += ' ';
  text_ += word;
  return *this;
}

}  // namespace pcount::driver
