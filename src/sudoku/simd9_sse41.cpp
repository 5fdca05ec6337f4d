// The vectorised 9×9 kernel built for SSE4.1 (x86-64-v2); CMakeLists.txt adds
// -march=x86-64-v2 to this file (see simd9_kernel.ipp).
#define PCOUNT_SIMD9_NS simd9_sse41
#include "simd9_kernel.ipp"
