import Foundation
import Logging

/// Log lines for a person at a terminal: "heritage-lens: message", with the level named only
/// when it is a warning or worse. Debug lines carry their logger's label.
struct TerminalLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    let label: String

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = "heritage-lens: "
        switch event.level {
        case .warning: line += "warning: "
        case .error, .critical: line += "error: "
        case .debug, .trace:
            // Context such as the frame a tracker is on, which the message alone lacks.
            let context = metadata.merging(event.metadata ?? [:]) { $1 }.sorted { $0.key < $1.key }
                .map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            line += context.isEmpty ? "[\(label)] " : "[\(label) \(context)] "
        default: break
        }
        line += "\(event.message)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
