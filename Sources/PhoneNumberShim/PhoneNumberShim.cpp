// A C face for libphonenumber's PhoneNumberUtil, so that Swift needs no C++ interop.
#include "PhoneNumberShim.h"

#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

#include <cstring>
#include <string>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

namespace {

void copy(const std::string &from, char *to, size_t size) {
    size_t n = from.size() < size - 1 ? from.size() : size - 1;
    std::memcpy(to, from.data(), n);
    to[n] = 0;
}

int typeCode(PhoneNumberUtil::PhoneNumberType t) {
    switch (t) {
    case PhoneNumberUtil::FIXED_LINE: return PN_TYPE_FIXED_LINE;
    case PhoneNumberUtil::MOBILE: return PN_TYPE_MOBILE;
    case PhoneNumberUtil::FIXED_LINE_OR_MOBILE: return PN_TYPE_FIXED_LINE_OR_MOBILE;
    case PhoneNumberUtil::TOLL_FREE: return PN_TYPE_TOLL_FREE;
    case PhoneNumberUtil::PREMIUM_RATE: return PN_TYPE_PREMIUM_RATE;
    case PhoneNumberUtil::SHARED_COST: return PN_TYPE_SHARED_COST;
    case PhoneNumberUtil::VOIP: return PN_TYPE_VOIP;
    case PhoneNumberUtil::PERSONAL_NUMBER: return PN_TYPE_PERSONAL_NUMBER;
    case PhoneNumberUtil::PAGER: return PN_TYPE_PAGER;
    case PhoneNumberUtil::UAN: return PN_TYPE_UAN;
    case PhoneNumberUtil::VOICEMAIL: return PN_TYPE_VOICEMAIL;
    default: return PN_TYPE_UNKNOWN;
    }
}

}  // namespace

extern "C" int pn_parse(const char *text, const char *region, int with_type, pn_number *out) {
    std::memset(out, 0, sizeof *out);
    out->type = PN_TYPE_UNKNOWN;
    if (text == nullptr) return 0;
    const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
    std::string from = region != nullptr && region[0] != 0 ? region : "ZZ";
    PhoneNumber number;
    if (util->ParseAndKeepRawInput(text, from, &number) != PhoneNumberUtil::NO_PARSING_ERROR) return 0;
    std::string national;
    util->GetNationalSignificantNumber(number, &national);
    // A valid number, or one of a length its country allows and long enough not to be a
    // short code or a fragment ("12" is possible in Germany; it is no one's number).
    // Validity is asked only when it decides (it costs as much again as the parse); a
    // number of a length its country never has is never valid either.
    bool possibleLength = util->IsPossibleNumber(number);
    bool possible = possibleLength && national.size() >= 6;
    bool valid = possibleLength && (!possible || with_type) && util->IsValidNumber(number);
    if (!possible && !valid) return 0;
    std::string e164;
    util->Format(number, PhoneNumberUtil::E164, &e164);
    copy(e164, out->e164, sizeof out->e164);
    copy(national, out->national, sizeof out->national);
    out->country_code = number.country_code();
    out->international = number.country_code_source() != PhoneNumber::FROM_DEFAULT_COUNTRY;
    out->type = with_type && valid ? typeCode(util->GetNumberType(number)) : PN_TYPE_UNKNOWN;
    return 1;
}

extern "C" int pn_is_region(const char *region) {
    if (region == nullptr) return 0;
    std::string r = region;
    if (r.size() != 2 || r == "ZZ") return 0;
    return PhoneNumberUtil::GetInstance()->GetCountryCodeForRegion(r) != 0;
}

extern "C" int pn_region_for_country(int country_code, char *out) {
    std::string region;
    PhoneNumberUtil::GetInstance()->GetRegionCodeForCountryCode(country_code, &region);
    if (region.size() != 2 || region == "ZZ") return 0;
    std::memcpy(out, region.data(), 2);
    out[2] = 0;
    return 1;
}
