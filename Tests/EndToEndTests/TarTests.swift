import Backup
import Foundation
import Testing

/// The archive's tar headers: a size of 8 GiB or more (a large deployment's dump) no longer fits
/// 11 octal digits and is written in base 256, as GNU tar does; each size reads back as written.
struct TarTests {
    @Test(arguments: [0, 511, Tar.base256Sizes - 1, Tar.base256Sizes, 1 << 36 + 7, Int(Int64.max)])
    func aSizeReadsBackAsWritten(_ size: Int) throws {
        let header = Tar.header(name: "database.dump", size: size, modified: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(try Tar.parse(header) == .file(name: "database.dump", size: size))
        #expect((header[124] == 0x80) == (size >= Tar.base256Sizes), "octal below 8 GiB, as every tar reads")
    }
}
