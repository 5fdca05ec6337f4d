// The queens join's halves: column mirroring, the images of a column set,
// each task's two halves and their Knuth probe (join_halves.hpp).
#include "join_halves.hpp"

namespace pcount::queens::join_detail {

u32 mirror_columns(u32 x, int n) {
  u32 r = 0;
  for (int c = 0; c < n; ++c)
    if ((x >> c) & 1u) r |= 1u << (n - 1 - c);
  return r;
}

std::array<std::pair<int, u32>, 4> images(const Geometry& g, int m, u32 top) {
  const int mm = m < 0 ? -1 : g.n - 1 - m;
  const u32 flip = g.complement(top, m);
  return {{{m, top}, {m, flip}, {mm, mirror_columns(top, g.n)}, {mm, mirror_columns(flip, g.n)}}};
}

double Half::probe(std::mt19937_64& rng) const {
  if (g->rows == 0) return 1.0;
  double product = 1.0;
  u32 cols = 0, dl = 0, dr = 0;
  for (int r = 0; r < g->rows; ++r) {
    const u32 need = must & ~cols;
    const int left = g->rows - r;
    if (std::popcount(need) > left) return 0.0;
    u32 free = allowed[static_cast<std::size_t>(r)] & ~(cols | dl | dr);
    if (std::popcount(need) == left) free &= need;
    const int k = std::popcount(free);
    if (k == 0) return 0.0;
    product *= k;
    int pick = static_cast<int>(std::uniform_int_distribution<int>(0, k - 1)(rng));
    u32 q = free;
    while (pick-- > 0) q &= q - 1;
    q &= 0u - q;
    cols |= q;
    dl = ((dl | q) << 1) & g->full;
    dr = (dr | q) >> 1;
  }
  return product;
}

Half top_half(const Geometry& g, const JoinTask& t) {
  return Half(g, true, t.middle, g.full & ~(g.outer_mask & ~t.outer), t.outer);
}
Half bottom_half(const Geometry& g, const JoinTask& t) {
  const u32 bottom_outer = g.outer_mask & ~t.outer & ~bit(t.middle);
  return Half(g, false, t.middle, g.full & ~(g.outer_mask & ~bottom_outer), bottom_outer);
}

}  // namespace pcount::queens::join_detail
