#include "ScanKernel.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

long scan_find_pair(const unsigned char *text, size_t length, unsigned char first, unsigned char second)
{
    size_t i = 0;
    if (length < 2)
        return -1;
#if defined(__SSE2__)
    const __m128i a = _mm_set1_epi8((char)first);
    const __m128i b = _mm_set1_epi8((char)second);
    /* Each step reads text[i .. i + 16], so it needs 17 bytes. */
    for (; i + 17 <= length; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(text + i));
        __m128i y = _mm_loadu_si128((const __m128i *)(text + i + 1));
        int mask = _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(x, a), _mm_cmpeq_epi8(y, b)));
        if (mask)
            return (long)(i + (size_t)__builtin_ctz((unsigned)mask));
    }
#endif
    for (; i + 1 < length; i++) {
        if (text[i] == first && text[i + 1] == second)
            return (long)i;
    }
    return -1;
}
