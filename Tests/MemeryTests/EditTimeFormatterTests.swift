import Memery
import MemeryTestSupport
import Testing

/// The formatter that remembers its last second says what a fresh format would, whatever
/// order the times come in: within a second, across one, back to an earlier one, before 1970.
@Suite struct EditTimeFormatterTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func eachTimeReadsAsAFreshFormatWould(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var times = EditTimeFormatter()
        var millis: Int64 = .random(in: -3_000 ... 3_000, using: &random)
        for _ in 0 ..< 3_000 {
            switch Int.random(in: 0 ..< 4, using: &random) {
            case 0: millis += .random(in: 0 ... 3, using: &random)  // many edits in a second
            case 1: millis += .random(in: 900 ... 1_100, using: &random)  // about the next second
            case 2: millis -= .random(in: 0 ... 2_500, using: &random)  // a clock set back, a merged log
            default: millis = .random(in: -86_400_000 ... 4_102_444_800_000, using: &random)
            }
            let shown = times.text(millis)
            #expect(shown == HistoryTreeText.time(millis), "at \(millis) ms")
            if shown != HistoryTreeText.time(millis) { return }
        }
    }

    @Test func theSecondsAroundNineteenSeventyAreTheirOwn() {
        var times = EditTimeFormatter()
        #expect([-1_001, -1_000, -1, 0, 999, 1_000].map { times.text($0) } == [
            "1969-12-31T23:59:58Z", "1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z",
            "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "1970-01-01T00:00:01Z",
        ])
        // A damaged record's time cannot trap: it is formatted as the format style does.
        for millis in [Int64.min, Int64.min + 998, Int64.max] {
            #expect(times.text(millis) == HistoryTreeText.time(millis))
        }
    }
}
