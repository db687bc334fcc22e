import Logging

extension Logger {
    /// The logger the program hands one library component: the library makes none of its own, so
    /// where its lines go and how many there are is the program's choice. Debug lines carry the
    /// label, which tells the components apart.
    static func component(_ name: String) -> Logger { Logger(label: "heritage-lens.\(name)") }
}
