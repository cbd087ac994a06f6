import Testing
import Tokens

/// The reader of every signed payload and footer: what RFC 8259 allows in a flat object reads
/// back exactly, and everything else is refused, never half-read.
@Suite struct FlatJSONObjectTests {
    @Test func flatObjectsReadBackExactly() throws {
        let object = try #require(
            FlatJSONObject(
                Array(#" { "s" : "x" , "i":-0,"max":9223372036854775807,"min":-9223372036854775808,"t":true,"f":false,"n":null } "#.utf8)))
        #expect(object.string("s") == "x" && object.integer("i") == 0)
        #expect(object.integer("max") == .max && object.integer("min") == .min)
        #expect(object.bool("t") == true && object.bool("f") == false)
        #expect(object.isAbsentOrNull("n") && object.isAbsentOrNull("missing") && !object.isAbsentOrNull("s"))
        #expect(object.string("i") == nil && object.integer("s") == nil, "a value of another type is not read as this one")
        #expect(FlatJSONObject(Array("{}".utf8)) != nil)
    }

    @Test func escapesAndUnicodeReadBackExactly() throws {
        let text = #"{"a":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00","é":"😀 Ωμέγα"}"#
        let object = try #require(FlatJSONObject(Array(text.utf8)))
        #expect(object.string("a") == "\"\\/\u{8}\u{c}\n\r\té😀")
        #expect(object.string("é") == "😀 Ωμέγα")
    }

    @Test(arguments: [
        #"{"a":{"b":1}}"#, #"{"a":[1]}"#, #"{"a":1.5}"#, #"{"a":1e3}"#, #"{"a":01}"#, #"{"a":-}"#,
        #"{"a":9223372036854775808}"#, #"{"a":-9223372036854775809}"#,
        #"{"a":1,"a":2}"#, #"{"é":1,"é":2}"#,  // the same key twice, also when only canonically equal
        #"{"a":"x"} x"#, #"{"a":"x"}{}"#, #"{"a":1,}"#, #"{,}"#, #"{"a":}"#, #"{"a" 1}"#, #"{a:1}"#, "[]", "", "{", #"{"a":"open"#,
        #"{"a":tru}"#, #"{"a":nul}"#, #"{"a":True}"#,
        #"{"a":"\x"}"#, #"{"a":"\u12"}"#, #"{"a":"\ud800"}"#, #"{"a":"\udc00"}"#, #"{"a":"\ud800\u0041"}"#,
        #"{"a":"\ud800\ud800"}"#, #"{"a":"\ud800 \udc00"}"#, #"{"a":"\ \u0041"}"#,
        "{\"a\":\"\u{1}\"}", "{\"a\":\"line\nbreak\"}",
    ])
    func anythingElseIsRefused(text: String) {
        #expect(FlatJSONObject(Array(text.utf8)) == nil, "\(text.debugDescription)")
    }

    @Test func invalidUTF8IsRefused() {
        #expect(FlatJSONObject(Array(#"{"a":""#.utf8) + [0xC3] + Array(#""}"#.utf8)) == nil)
        #expect(FlatJSONObject(Array(#"{""#.utf8) + [0xFF] + Array(#"":1}"#.utf8)) == nil)
        #expect(FlatJSONObject(Array(#"{"a":""#.utf8) + [0xC0, 0x80] + Array(#""}"#.utf8)) == nil, "an overlong NUL")
        #expect(FlatJSONObject(Array(#"{"a":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8)) == nil, "a surrogate in UTF-8 (CESU)")
        #expect(FlatJSONObject(Array(#"{"a":"\u0000"}"#.utf8))?.string("a") == "\u{0}", "an escaped NUL is a character like any other")
    }
}
