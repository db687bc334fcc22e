import Foundation
import HeritageLens
import Synchronization

/// Models a batch loads once and every run shares: the landmark model takes about a second to
/// load and only reads once loaded; a card set is read-only too. Loaded on first use, under one lock.
final class SharedModels: Sendable {
    private struct Loaded {
        var predictor: LandmarkPredictor?
        var cardSets: [String: CardSet] = [:]
    }

    private let loaded = Mutex(Loaded())

    func landmarkPredictor() throws -> LandmarkPredictor {
        try loaded.withLock { state in
            if let predictor = state.predictor { return predictor }
            let predictor = try LandmarkPredictor()
            state.predictor = predictor
            return predictor
        }
    }

    func cardSet(folder: String) throws -> CardSet {
        try loaded.withLock { state in
            if let set = state.cardSets[folder] { return set }
            let set = try CardSet(folder: folder)
            state.cardSets[folder] = set
            return set
        }
    }
}
