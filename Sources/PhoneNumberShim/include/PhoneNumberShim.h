#ifndef PHONE_NUMBER_SHIM_H
#define PHONE_NUMBER_SHIM_H

#ifdef __cplusplus
extern "C" {
#endif

/// What libphonenumber makes of a number.
typedef struct {
    /// The number in E.164 ("+491715550199"); empty when it does not parse or cannot be a number.
    char e164[32];
    /// The national significant number ("1715550199"), without trunk prefix or country code.
    char national[32];
    int country_code;
    /// One of the PN_TYPE_ values; PN_TYPE_UNKNOWN for a number that is not valid.
    int type;
    /// Whether the number carried its own country code (+, 00 or another exit code).
    int international;
} pn_number;

enum {
    PN_TYPE_FIXED_LINE = 0,
    PN_TYPE_MOBILE = 1,
    PN_TYPE_FIXED_LINE_OR_MOBILE = 2,
    PN_TYPE_TOLL_FREE = 3,
    PN_TYPE_PREMIUM_RATE = 4,
    PN_TYPE_SHARED_COST = 5,
    PN_TYPE_VOIP = 6,
    PN_TYPE_PERSONAL_NUMBER = 7,
    PN_TYPE_PAGER = 8,
    PN_TYPE_UAN = 9,
    PN_TYPE_VOICEMAIL = 10,
    PN_TYPE_UNKNOWN = 11,
};

/// Parses `text` as a number dialled in `region` (an ISO 3166 code, or NULL/"" for none: then
/// only numbers with their own country code parse). Returns 1 when `out` holds a number
/// that is possible for its country, 0 otherwise. Never throws, never keeps `text`.
/// With `with_type` 0 the type is left PN_TYPE_UNKNOWN (telling it costs more than parsing).
int pn_parse(const char *text, const char *region, int with_type, pn_number *out);

/// Whether `region` is a region libphonenumber knows ("DE", "US"; not "EU" or "de").
int pn_is_region(const char *region);

/// The main region of a country calling code ("DE" for 49), in `out` (3 bytes, NUL-ended).
/// Returns 0 for a code no region has.
int pn_region_for_country(int country_code, char *out);

#ifdef __cplusplus
}
#endif

#endif
