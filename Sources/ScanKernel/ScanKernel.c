#include "ScanKernel.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* Bytes with a feature bit of their own: folded contact text is mostly these. */
static const char exactBytes[] = "abcdefghijklmnopqrstuvwxyz0123456789 @.-_+'";
/* Pairs of letters with a feature bit of their own: the 64 most frequent in English text,
 * which European names share. A two-letter needle is then answered by its bit alone, as a
 * one-byte needle is: these are the needles that nearly every contact's text holds, where
 * looking in each text was most of the work. Other pairs share 192 bits by a hash (as all
 * pairs did before: fewer made the digits of phone numbers pass far more often). */
static const char exactPairs[] =
    "thheineranreonatenndtiesorteofedisitalarsttontngsehaasouiolevecomedehiriroicneearacelichllbemasiomurcaeltalansdifohopeecprnoctus";
enum {
    exactCount = sizeof exactBytes - 1,
    exactPairCount = (sizeof exactPairs - 1) / 2,
    byteBits = 64,
    hashedPairBits = 192,
};

/* The feature bit of each byte value. */
static unsigned char byteBit[256];
/* Whether a byte's bit is its own. */
static bool byteBitIsExact[256];
/* The feature bit of each pair of bytes (the first byte in the high half of the index):
 * those below byteBits + exactPairCount are the pair's own. */
static uint16_t pairBit[65536];

static inline unsigned pair_bit(unsigned char a, unsigned char b) { return pairBit[(unsigned)a << 8 | b]; }

static inline bool pair_bit_is_exact(unsigned char a, unsigned char b) { return pair_bit(a, b) < byteBits + exactPairCount; }

void scan_features(const unsigned char *text, size_t length, ScanFeatures *out)
{
    uint64_t *features = out->bits;
    memset(features, 0, sizeof out->bits);
    for (size_t i = 0; i < length; i++) {
        unsigned bit = byteBit[text[i]];
        features[bit >> 6] |= 1ull << (bit & 63);
        if (i + 1 < length) {
            bit = pair_bit(text[i], text[i + 1]);
            features[bit >> 6] |= 1ull << (bit & 63);
        }
    }
}

/* What the scan looks for first: the needle's rarest pair of adjacent bytes, and for needles
 * of three bytes or more a third byte: the last, or the first when the pair ends the needle.
 * Checking a third byte turns away almost every place where only the pair occurs: digits of
 * phone numbers, common letter pairs. */
typedef struct Probe {
    long pair;
    long length;
    unsigned char p0, p1;
    /* Where the third byte is (below `length`), and what it is. */
    long third;
    unsigned char thirdByte;
} Probe;

/* Set when the program is loaded, before any thread can scan. */
__attribute__((constructor)) static void setup_byte_bits(void)
{
    for (int b = 0; b < 256; b++)
        byteBit[b] = (unsigned char)(exactCount + (unsigned)b * 7u % (byteBits - exactCount));
    for (int i = 0; i < exactCount; i++) {
        byteBit[(unsigned char)exactBytes[i]] = (unsigned char)i;
        byteBitIsExact[(unsigned char)exactBytes[i]] = true;
    }
    for (uint32_t ab = 0; ab < 65536; ab++) {
        uint32_t h = ab * 2654435761u;
        pairBit[ab] = (uint16_t)(byteBits + exactPairCount + (h >> 16) % hashedPairBits);
    }
    for (int i = 0; i < exactPairCount; i++)
        pairBit[(unsigned)(unsigned char)exactPairs[2 * i] << 8 | (unsigned char)exactPairs[2 * i + 1]] = (uint16_t)(byteBits + i);
}

bool scan_needle_is_exact(const unsigned char *needle, size_t length)
{
    return (length == 1 && byteBitIsExact[needle[0]]) || (length == 2 && pair_bit_is_exact(needle[0], needle[1]));
}

/* The first position from `s` on, at most `last`, where a match could start, or -1. */
static inline long next_candidate(const unsigned char *text, long s, long last, long end, const Probe *p)
{
#if defined(__SSE2__)
    /* Sixteen positions a step (SSE2, which every x86-64 has) while the bytes a step reads,
     * up to text[s + length + 14], lie below `end`. */
    const __m128i a = _mm_set1_epi8((char)p->p0);
    const __m128i b = _mm_set1_epi8((char)p->p1);
    const __m128i z = _mm_set1_epi8((char)p->thirdByte);
    for (; s <= last && s + p->length + 15 <= end; s += 16) {
        __m128i eq = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(text + s + p->pair)), a);
        if (p->length >= 2)
            eq = _mm_and_si128(eq, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(text + s + p->pair + 1)), b));
        if (p->length >= 3)
            eq = _mm_and_si128(eq, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(text + s + p->third)), z));
        unsigned mask = (unsigned)_mm_movemask_epi8(eq);
        if (mask) {
            long c = s + __builtin_ctz(mask);
            return c <= last ? c : -1;
        }
    }
#endif
    for (; s <= last; s++) {
        if (text[s + p->pair] == p->p0 && (p->length < 2 || text[s + p->pair + 1] == p->p1)
            && (p->length < 3 || text[s + p->third] == p->thirdByte))
            return s;
    }
    return -1;
}

#if defined(__x86_64__)
/* next_candidate thirty-two positions a step, for processors with AVX2 (most x86-64 made since
 * 2013): a needle most contacts' features let through is looked for in the whole stretch of
 * text, and this step is what that costs (a million contacts: "55512" 26 ms with SSE2). */
__attribute__((target("avx2"))) static long next_candidate_avx2(const unsigned char *text, long s, long last, long end, const Probe *p)
{
    const __m256i a = _mm256_set1_epi8((char)p->p0);
    const __m256i b = _mm256_set1_epi8((char)p->p1);
    const __m256i z = _mm256_set1_epi8((char)p->thirdByte);
    /* The bytes a step reads, up to text[s + length + 30], lie below `end`. */
    for (; s <= last && s + p->length + 31 <= end; s += 32) {
        __m256i eq = _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(text + s + p->pair)), a);
        if (p->length >= 2)
            eq = _mm256_and_si256(eq, _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(text + s + p->pair + 1)), b));
        if (p->length >= 3)
            eq = _mm256_and_si256(eq, _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(text + s + p->third)), z));
        unsigned mask = (unsigned)_mm256_movemask_epi8(eq);
        if (mask) {
            long c = s + __builtin_ctz(mask);
            return c <= last ? c : -1;
        }
    }
    /* The last positions, sixteen or one at a time. */
    return next_candidate(text, s, last, end, p);
}

static bool haveAVX2;

__attribute__((constructor)) static void detect_avx2(void)
{
    __builtin_cpu_init();
    haveAVX2 = __builtin_cpu_supports("avx2");
}
#endif

/* next_candidate with the widest steps this processor takes. */
static inline long find_candidate(const unsigned char *text, long s, long last, long end, const Probe *p)
{
#if defined(__x86_64__)
    if (haveAVX2)
        return next_candidate_avx2(text, s, last, end, p);
#endif
    return next_candidate(text, s, last, end, p);
}

bool scan_uses_avx2(void)
{
#if defined(__x86_64__)
    return haveAVX2;
#else
    return false;
#endif
}

void scan_allow_avx2(bool allowed)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    haveAVX2 = allowed && __builtin_cpu_supports("avx2");
#else
    (void)allowed;
#endif
}

static inline bool has_all(const ScanFeatures *f, const uint64_t *want)
{
    const uint64_t *has = f->bits;
    return (has[0] & want[0]) == want[0] && (has[1] & want[1]) == want[1] && (has[2] & want[2]) == want[2]
        && (has[3] & want[3]) == want[3] && (has[4] & want[4]) == want[4];
}

static inline long slot_end(const ScanSlot *s) { return (long)s->textStart + (long)s->textCount; }

/* The first slot from `cursor` on whose text ends after position c, which lies before the end
 * of the last slot's text. Galloping: a needle that occurs rarely jumps over many slots while
 * reading few of them. */
static inline size_t slot_containing(const ScanSlot *slots, size_t count, size_t cursor, long c)
{
    if (slot_end(&slots[cursor]) > c)
        return cursor;
    size_t lo = cursor, hi = cursor + 1, step = 1;
    while (hi < count - 1 && slot_end(&slots[hi]) <= c) {
        lo = hi;
        step *= 2;
        hi = cursor + step;
    }
    if (hi > count - 1)
        hi = count - 1;
    while (hi - lo > 1) { /* slot_end(lo) <= c < slot_end(hi) */
        size_t mid = lo + (hi - lo) / 2;
        if (slot_end(&slots[mid]) <= c)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

/* The whole stretch of text in one pass, for needles that most contacts' features let through
 * (the digits of a phone number in a corpus of phone numbers): looking in each contact's text
 * on its own would restart the search at every contact. */
static void mark_stretch(const unsigned char *text, size_t textLength, const ScanSlot *slots, size_t count,
                         const unsigned char *needle, const Probe *probe, unsigned char *marks)
{
    const long len = probe->length;
    const long last = slot_end(&slots[count - 1]) - len;
    size_t cursor = 0;
    long s = (long)slots[0].textStart;
    while (s <= last) {
        long c = find_candidate(text, s, last, (long)textLength, probe);
        if (c < 0)
            return;
        cursor = slot_containing(slots, count, cursor, c);
        if (!marks[cursor] && c + len <= slot_end(&slots[cursor]) && text[c] == needle[0]
            && (len <= 3 || memcmp(text + c, needle, (size_t)len) == 0))
            marks[cursor] = 1;
        else if (!marks[cursor]) {
            s = c + 1;
            continue;
        }
        /* Marked (now or by another needle): the rest of this slot's text does not matter. */
        if (++cursor == count)
            return;
        s = (long)slots[cursor].textStart;
    }
}

void scan_mark(const unsigned char *text, size_t textLength, const ScanSlot *slots, const ScanFeatures *features, size_t count,
               const unsigned char *needle, size_t length, size_t pair, bool contiguous, unsigned char *marks)
{
    if (count == 0 || length == 0 || pair >= length || (length >= 2 && pair + 1 >= length))
        return;
    ScanFeatures needleFeatures;
    scan_features(needle, length, &needleFeatures);
    const uint64_t *want = needleFeatures.bits;
    /* A needle whose features are its own bits: holding them is holding the needle. */
    const bool exact = scan_needle_is_exact(needle, length);
    const long len = (long)length;
    /* The third byte: the last, unless the pair ends the needle ("55512" looked for at its
     * "12": checking the final "2" again would let every "12" through). */
    const long third = len >= 3 && (long)pair + 1 == len - 1 ? 0 : len - 1;
    const Probe probe = {(long)pair, len, needle[pair], length >= 2 ? needle[pair + 1] : 0, third, needle[third]};
    const unsigned char first = needle[0];
    if (contiguous && !exact) {
        /* Most contacts' features let the needle through: one pass over the stretch. */
        size_t sample = count < 1024 ? count : 1024, through = 0;
        for (size_t i = 0; i < sample; i++)
            through += has_all(&features[i], want);
        if (through * 8 > sample) {
            mark_stretch(text, textLength, slots, count, needle, &probe, marks);
            return;
        }
    }
    for (size_t i = 0; i < count; i++) {
        if (marks[i] || !has_all(&features[i], want))
            continue;
        if (exact) {
            marks[i] = 1;
            continue;
        }
        const ScanSlot *slot = &slots[i];
        const long last = (long)slot->textStart + (long)slot->textCount - (long)len;
        for (long s = (long)slot->textStart; s <= last;) {
            long c = find_candidate(text, s, last, (long)textLength, &probe);
            if (c < 0)
                break;
            if (text[c] == first && (len <= 3 || memcmp(text + c, needle, length) == 0)) {
                marks[i] = 1;
                break;
            }
            s = c + 1;
        }
    }
}
