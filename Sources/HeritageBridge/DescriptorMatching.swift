import CBridge

/// A query descriptor's two nearest train descriptors and their Hamming distances.
public struct NearestTwo: Hashable, Sendable {
    public var query: Int
    public var train: Int
    public var best: Int
    public var second: Int
}

public enum DescriptorMatching {
    /// Each of `queryCount` 32-byte query descriptors' two nearest among `trainCount` train
    /// descriptors (brute force, Hamming).
    public static func nearestTwo(query: [UInt8], queryCount: Int, train: [UInt8],
                                  trainCount: Int) throws(BridgeError) -> [NearestTwo] {
        guard queryCount > 0, trainCount >= 2 else { return [] }
        var out = [cb_match2](repeating: cb_match2(), count: queryCount)
        let n = Int(try check(cb_match_knn2(query, Int32(queryCount), train, Int32(trainCount), &out), "match descriptors"))
        return out.prefix(n).map { NearestTwo(query: Int($0.query), train: Int($0.train), best: Int($0.best), second: Int($0.second)) }
    }
}
