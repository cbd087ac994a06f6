import ConstellationModel
import Server
import Testing

/// A card entry's label becomes its vCard TYPE when it names one, in either language of the pages:
/// a German card's "Arbeit" or "Handy" was dropped from the contact a phone saved.
struct VCardTypeTests {
    @Test(arguments: [
        (ContactEntry.Kind.email, "Arbeit", "EMAIL;TYPE=work:a@b.example"), (.email, " privat ", "EMAIL;TYPE=home:a@b.example"),
        (.email, "work", "EMAIL;TYPE=work:a@b.example"), (.email, "Konferenz", "EMAIL:a@b.example"),
        (.phone, "Handy", "TEL;VALUE=uri;TYPE=cell:tel:a@b.example"), (.phone, "Mobile", "TEL;VALUE=uri;TYPE=cell:tel:a@b.example"),
        (.phone, "Büro", "TEL;VALUE=uri;TYPE=work:tel:a@b.example"), (.link, "Geschäftlich", "URL;TYPE=work:a@b.example"),
    ])
    func aLabelNamingATypeInEitherLanguageIsItsType(_ kind: ContactEntry.Kind, _ label: String, _ property: String) {
        #expect(VCard.property(ContactEntry(kind: kind, label: label, value: "a@b.example")) == property)
    }
}
