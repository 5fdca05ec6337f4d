// driver::Params: a problem's parameters, each parsed, recorded and written
// into the job's fingerprint by one declaration (driver/problem.hpp).
#include <algorithm>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "pcount/driver/problem.hpp"

namespace pcount::driver {

namespace {

/// The value of `option` ("--rows" or "rows"), as Invocation::value.
std::optional<std::string> option_value(const Invocation& inv, std::string_view option) {
  while (option.starts_with('-')) option.remove_prefix(1);
  return inv.value(std::string(option));
}

std::string field(std::string_view name, std::string_view value) {
  return std::string(name) + "=" + std::string(value);
}

}  // namespace

void Params::note(std::string entry, Written written) {
  if (written == by_params) fields_.push_back(entry);
  inv_.declared.push_back(std::move(entry));
}

long long Params::integer(std::string_view option, std::string_view name, long long lo, long long hi,
                          std::optional<long long> fallback, Written written) {
  const auto text = option_value(inv_, option);
  if (!text && !fallback) throw InvalidArgument(std::string(option), "is required");
  const long long v = text ? parse_int(std::string(option), *text, lo, hi) : *fallback;
  note(field(name, std::to_string(v)), written);
  return v;
}

std::optional<long long> Params::optional_integer(std::string_view option, std::string_view name, long long lo,
                                                  long long hi, Written written) {
  if (!option_value(inv_, option)) return std::nullopt;
  return integer(option, name, lo, hi, std::nullopt, written);
}

std::string Params::choice(std::string_view option, std::string_view name, const std::vector<std::string>& allowed,
                           const std::string& fallback, Written written) {
  const std::string v = option_value(inv_, option).value_or(fallback);
  if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    throw InvalidArgument(std::string(option), "'" + v + "' does not apply here; allowed: " + list);
  }
  note(field(name, v), written);
  return v;
}

std::string Params::method(const std::vector<std::string>& allowed, const std::string& fallback, Written written) {
  std::string v = choose_method(inv_, allowed, fallback);
  note(field("method", v), written);
  return v;
}

bool Params::flag(std::string_view option, std::string_view if_set, std::string_view if_unset, Written written) {
  while (option.starts_with('-')) option.remove_prefix(1);
  const bool set = inv_.has(std::string(option));
  const std::string_view word = set ? if_set : if_unset;
  if (!word.empty()) note(std::string(word), written);
  return set;
}

void Params::record(std::string_view name, std::string_view value, Written written) {
  note(field(name, value), written);
}

Fingerprint Params::fingerprint(std::string_view problem) const {
  Fingerprint fp(problem);
  for (const std::string& f : fields_) {
    const auto eq = f.find('=');
    if (eq == std::string::npos)
      fp.flag(f);
    else
      fp.add(std::string_view(f).substr(0, eq), std::string_view(f).substr(eq + 1));
  }
  return fp;
}

std::vector<std::string> missing_parameters(const Invocation& inv, std::string_view fingerprint) {
  std::vector<std::string> words;
  std::istringstream in{std::string(fingerprint)};
  for (std::string w; in >> w;) words.push_back(w);
  std::vector<std::string> missing;
  for (const std::string& d : inv.declared) {
    const auto eq = d.find('=');
    const bool held = eq == std::string::npos
                          ? std::find(words.begin(), words.end(), d) != words.end()
                          : engine::fingerprint_field(fingerprint, d.substr(0, eq)) == d.substr(eq + 1);
    if (!held) missing.push_back(d);
  }
  return missing;
}

}  // namespace pcount::driver
