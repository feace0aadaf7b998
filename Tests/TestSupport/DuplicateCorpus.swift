/// Cards of the same people as a phone, Google and an Apple address book export them, and of
/// people who only look alike, for the duplicates' tests.
public enum DuplicateCorpus {
    /// Anna three times: an Android 2.1 export (national number), a Google 3.0 export
    /// (international number, capitalised email, her middle name, a note), and an Apple card
    /// with labels, her names swapped in the formatted name and another birthday; José with
    /// and without accents; two Maria Garcia; a family's landline; a typo in a long name.
    public static let cards = """
        BEGIN:VCARD
        VERSION:2.1
        N:Schmidt;Anna;;;
        FN:Anna Schmidt
        TEL;CELL:0171 5550199
        EMAIL;HOME:anna@example.com
        BDAY:1985-03-04
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Anna Maria Schmidt
        N:Schmidt;Anna;Maria;;
        TEL;TYPE=CELL:+49 171 5550199
        EMAIL;TYPE=INTERNET:Anna@Example.com
        NOTE:Met at the conference
        CATEGORIES:Friends
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Schmidt Anna
        N:Schmidt;Anna;;;
        item1.TEL:+49 (0)171 555-0199
        item1.X-ABLabel:_$!<Mobile>!$_
        item2.X-SOCIALPROFILE:https://social.example/anna
        item2.X-ABLabel:Mastodon
        BDAY:1985-04-03
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:José Núñez
        TEL:+34 612 345 678
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Jose Nunez
        EMAIL:jose@example.es
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Maria Garcia
        EMAIL:maria.garcia@example.com
        TEL:+34 600 111 222
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Maria Garcia
        EMAIL:mgarcia@example.org
        TEL:+34 600 333 444
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Hans Müller
        TEL;TYPE=HOME:030 1234567
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Greta Müller
        TEL;TYPE=HOME:+49 30 1234567
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Katherine Johnson
        TEL:+1 212 555 0100
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Katharine Johnson
        TEL:(212) 555-0100
        END:VCARD
        """
}
