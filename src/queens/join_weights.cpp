// The queens join's weights: the plan of a task's groups and the halves'
// pruning by the diagonal reflection (join_weights.hpp).
#include "join_weights.hpp"

#include <bit>

#include "join_halves.hpp"

namespace pcount::queens::join_detail {

void plan_groups(const Geometry& g, const JoinTask& t, const DiagonalOrder& reflection, std::vector<GroupPlan>& plan) {
  const std::size_t groups = std::size_t{g.group_mask} + 1;
  plan.assign(groups, GroupPlan{});
  for (std::size_t gi = 0; gi < groups; ++gi) {
    const u32 columns = t.outer | (static_cast<u32>(gi) << g.group_shift);
    if (std::popcount(columns) != g.rows || (t.middle >= 0 && ((columns >> t.middle) & 1u))) continue;
    const auto im = images(g, t.middle, columns);
    bool least = true;
    u32 size = 0;
    for (std::size_t i = 0; i < im.size(); ++i) {
      if (std::find(im.begin(), im.begin() + static_cast<std::ptrdiff_t>(i), im[i]) ==
          im.begin() + static_cast<std::ptrdiff_t>(i))
        ++size;
      if (im[i].first == t.middle && (im[i].second & g.outer_mask) == t.outer && im[i].second < columns) least = false;
    }
    GroupPlan& p = plan[gi];
    p.join = least;
    p.size = size;
    const int k = std::popcount(columns & reflection.ones);
    if (g.diagonal && k != 0 && k != g.rows) {
      p.weighted = true;
      p.least = reflection.of_columns(columns);
      p.threshold = p.least >> g.rows;
    }
  }
}

void prune_halves(const Geometry& g, const JoinTask& t, const DiagonalOrder& reflection, Half& top, Half& bottom) {
  if (!g.diagonal) return;
  // The first `side` rows of a half decide the top `side` bits of its
  // min(λ, ~λ); the outer columns decide the top `side` bits of c(S)'s
  // high part (the least of its four images' prefixes), the same for
  // every group of the task. Where no group has k = 0 or a, that
  // threshold is positive; else it is 0 and prunes nothing.
  const int side = std::min(g.group_shift, g.rows - 3);
  if (side <= 0) return;
  const u32 ones = (1u << side) - 1u;
  const int drop = g.rows - side;
  const u32 left_prefix = reflection.reverse[t.outer & reflection.ones] >> drop;
  const u32 right_prefix = ((t.outer >> g.rows) & reflection.ones) >> drop;
  const u32 threshold = std::min({left_prefix, left_prefix ^ ones, right_prefix, right_prefix ^ ones});
  for (Half* h : {&top, &bottom}) {
    h->prune_rows = side;
    h->prune_threshold = threshold;
  }
}

}  // namespace pcount::queens::join_detail
