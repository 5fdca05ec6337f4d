// The queens join's vector kernel built for AVX2 (x86-64-v3); CMakeLists.txt
// adds -march=x86-64-v3 to this file (see join_kernel.ipp).
#define PCOUNT_JOIN_NS join_avx2
#define PCOUNT_JOIN_PATH avx2
#include "join_kernel.ipp"
