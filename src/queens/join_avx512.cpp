// The queens join's vector kernel built for AVX-512 (x86-64-v4); CMakeLists.txt
// adds -march=x86-64-v4 to this file (see join_kernel.ipp).
#define PCOUNT_JOIN_NS join_avx512
#define PCOUNT_JOIN_PATH avx512
#include "join_kernel.ipp"
