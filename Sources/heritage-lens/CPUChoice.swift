import HeritageLens

/// Which CPUs a measuring command pins itself to, within those the caller allowed it (taskset,
/// a cgroup): never a CPU the caller kept it off.
struct CPUChoice {
    /// The allowed CPUs, ascending.
    let allowed: [Int]

    static func current() throws -> CPUChoice {
        do {
            return CPUChoice(allowed: try ProcessResources.allowedCPUs())
        } catch {
            throw CommandFailure("cannot read this process's CPU affinity: \(error.message)")
        }
    }

    /// `count` CPUs: one alone is the second allowed one when there are several (the first
    /// takes most interrupts), more are the first `count`.
    func pick(_ count: Int, option: String) throws -> [Int] {
        guard count <= allowed.count else {
            throw CommandFailure("\(option) \(count): this process may run on \(allowed.count) CPU\(allowed.count == 1 ? "" : "s") (\(Self.list(allowed))); ask for fewer or widen taskset")
        }
        if count == 1 && allowed.count > 1 { return [allowed[1]] }
        return Array(allowed.prefix(count))
    }

    /// An exact CPU the user named.
    func pick(exactly cpu: Int, option: String) throws -> [Int] {
        guard allowed.contains(cpu) else {
            throw CommandFailure("\(option) \(cpu): not among the CPUs this process may run on (\(Self.list(allowed)))")
        }
        return [cpu]
    }

    static func pin(_ cpus: [Int], option: String) throws {
        do {
            try ProcessResources.pin(to: cpus)
        } catch {
            throw CommandFailure("\(option): cannot pin to CPU \(Self.list(cpus)): \(error.message)")
        }
    }

    /// "1" or "0-3" or "0,2".
    static func list(_ cpus: [Int]) -> String {
        guard let first = cpus.first, let last = cpus.last else { return "none" }
        if cpus.count > 1 && last - first == cpus.count - 1 { return "\(first)-\(last)" }
        return cpus.map(String.init).joined(separator: ",")
    }
}
