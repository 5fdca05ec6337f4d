// The queens join's vector kernel built for SSE4.1 (x86-64-v2); CMakeLists.txt
// adds -march=x86-64-v2 to this file (see join_kernel.ipp).
#define PCOUNT_JOIN_NS join_sse41
#define PCOUNT_JOIN_PATH sse41
#include "join_kernel.ipp"
