// The vectorised 9×9 kernel built for AVX-512 (x86-64-v4); CMakeLists.txt adds
// -march=x86-64-v4 to this file (-march=native in a native build on a CPU of
// that level; see simd9_kernel.ipp).
#define PCOUNT_SIMD9_NS simd9_avx512
#include "simd9_kernel.ipp"
