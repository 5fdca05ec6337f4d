// The vectorised 9×9 kernel built for AVX2 (x86-64-v3); CMakeLists.txt adds
// -march=x86-64-v3 to this file (-march=native in a native build on a CPU of
// that level; see simd9_kernel.ipp).
#define PCOUNT_SIMD9_NS simd9_avx2
#include "simd9_kernel.ipp"
