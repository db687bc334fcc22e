import CBridge

/// A query descriptor's two nearest train descriptors and their Hamming distances.
public struct NearestTwo: Hashable, Sendable {
    public var query: Int
    public var train: Int
    public var best: Int
    public var second: Int
}

public enum DescriptorMatching {
    /// The bridge's matching kernels. Each gives the same matches; the best one this CPU has is
    /// used unless one is asked for.
    public enum Kernel: Int32, CaseIterable, Sendable {
        /// Plain C: four 64-bit popcounts a pair, in software.
        case portable = 0
        /// The popcnt instruction.
        case popcnt = 1
        /// Eight train descriptors at a time, popcount by nibble table lookups.
        case avx2 = 2
        /// Eight at a time with AVX-512's own popcount.
        case avx512 = 3

        /// The kernels this CPU can run.
        public static var available: [Kernel] {
            let bits = cb_match_kernels()
            return allCases.filter { bits & (1 << $0.rawValue) != 0 }
        }
    }

    /// Each of `queryCount` 32-byte query descriptors' two nearest among `trainCount` train
    /// descriptors (brute force, Hamming). `kernel`: nil for the best this CPU has.
    public static func nearestTwo(query: [UInt8], queryCount: Int, train: [UInt8], trainCount: Int,
                                  kernel: Kernel? = nil) throws(BridgeError) -> [NearestTwo] {
        guard queryCount > 0, trainCount >= 2 else { return [] }
        var out = [cb_match2](repeating: cb_match2(), count: queryCount)
        let n: Int32
        if let kernel {
            n = cb_match_knn2_with(kernel.rawValue, query, Int32(queryCount), train, Int32(trainCount), &out)
        } else {
            n = cb_match_knn2(query, Int32(queryCount), train, Int32(trainCount), &out)
        }
        let count = Int(try check(n, "match descriptors"))
        return out.prefix(count).map { NearestTwo(query: Int($0.query), train: Int($0.train), best: Int($0.best), second: Int($0.second)) }
    }
}
