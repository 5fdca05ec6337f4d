#include "pcount/engine/wide.hpp"

namespace pcount::engine {

std::vector<std::string> wide_counter_names(const std::string& name, std::size_t limbs) {
  if (limbs <= 1) return {name};
  std::vector<std::string> names;
  for (std::size_t j = 0; j < limbs; ++j)
    names.push_back(name + ", bits " + std::to_string(64 * j) + "-" + std::to_string(64 * j + 63));
  return names;
}

void add_wide(Tally& tally, std::size_t first, std::size_t limbs, const BigInt& value) {
  if (value < 0) throw CountOverflow("a wide count is negative");
  if (limbs == 0) throw CountOverflow("a wide count has no counter");
  const BigInt mask = (BigInt(1) << 64) - 1;
  BigInt rest = value;
  for (std::size_t j = 0; j + 1 < limbs; ++j) {
    tally.add(first + j, static_cast<u128>(static_cast<std::uint64_t>(rest & mask)));
    rest >>= 64;
  }
  if (rest >> 128 != 0) throw CountOverflow("a wide count exceeds its " + std::to_string(limbs) + " counters");
  tally.add(first + limbs - 1,
            join64(static_cast<std::uint64_t>(rest & mask), static_cast<std::uint64_t>(rest >> 64)));
}

BigInt wide_total(const Tally& tally, std::size_t first, std::size_t limbs) {
  BigInt sum = 0;
  for (std::size_t j = 0; j < limbs; ++j) sum += to_big(tally.get(first + j)) << (64 * j);
  return sum;
}

}  // namespace pcount::engine
