import HeritageCore
import Testing
@testable import HeritageLens

@Suite struct DescriptorMatchingTests {
    /// The bridge's popcount matcher against the definition: for every query, the two smallest
    /// Hamming distances over all train descriptors, the first index on ties.
    @Test func nearestTwoMatchesABruteForceReference() throws {
        var rng = SplitMix64(seed: 7)
        func features(_ n: Int) -> ORBFeatures {
            ORBFeatures(points: (0..<n).map { Point2(Double($0), 0) },
                        descriptors: (0..<n * 32).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        }
        let query = features(60)
        var train = features(300)
        // Near-duplicates and exact ties, so ordering and tie-breaking are exercised.
        train.descriptors.replaceSubrange(32 * 5..<32 * 6, with: query.descriptors[0..<32])
        train.descriptors.replaceSubrange(32 * 9..<32 * 10, with: query.descriptors[0..<32])
        train.descriptors.replaceSubrange(32 * 7..<32 * 8, with: query.descriptors[32..<64].map { $0 ^ 1 })

        func distance(_ q: Int, _ t: Int) -> Int {
            (0..<32).reduce(0) { $0 + (query.descriptors[32 * q + $1] ^ train.descriptors[32 * t + $1]).nonzeroBitCount }
        }
        for kernel in DescriptorMatching.Kernel.available {
            try check(kernel)
        }
        // The default is one of them, and the best one there is.
        #expect(DescriptorMatching.Kernel.available.contains(.portable))
        #expect(try nearestTwo(query, train) == nearestTwo(query, train, kernel: DescriptorMatching.Kernel.available.last))

        func check(_ kernel: DescriptorMatching.Kernel) throws {
        let matches = try nearestTwo(query, train, kernel: kernel)
        #expect(matches.count == 60, "\(kernel)")
        for m in matches {
            let q = Int(m.query)
            let all = (0..<train.count).map { distance(q, $0) }
            let sorted = all.sorted()
            #expect(Int(m.best) == sorted[0] && Int(m.second) == sorted[1], "\(kernel) query \(q)")
            #expect(Int(m.train) == all.firstIndex(of: sorted[0]), "\(kernel) query \(q)")
        }
        #expect(matches[0].best == 0 && matches[0].second == 0 && matches[0].train == 5, "\(kernel)")
        #expect(matches[1].best == 32 && matches[1].train == 7, "\(kernel)")
        }
    }

    /// Fewer train descriptors than one vector block, and a count one past whole blocks: the
    /// vector kernels' scalar tail alone, and lanes that saw a single descriptor.
    @Test(arguments: [2, 3, 7, 9, 17])
    func everyKernelAgreesOnShortTrainSets(count: Int) throws {
        var rng = SplitMix64(seed: UInt64(count))
        func features(_ n: Int) -> ORBFeatures {
            ORBFeatures(points: (0..<n).map { Point2(Double($0), 0) },
                        descriptors: (0..<n * 32).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        }
        let query = features(20), train = features(count)
        let reference = try nearestTwo(query, train, kernel: .portable)
        for kernel in DescriptorMatching.Kernel.available {
            #expect(try nearestTwo(query, train, kernel: kernel) == reference, "\(kernel), \(count) train descriptors")
        }
    }
}
