import KindredTestSupport

/// Runs the built `kindred` executable as a subprocess, as a user or script would.
enum KindredProcess {
    /// Runs `kindred ARGS` with `stdin` as standard input.
    static func run(_ arguments: [String], stdin: [UInt8] = []) throws -> ChildProcess.Result {
        try ChildProcess.run(ChildProcess.kindredExecutable.path, arguments, input: stdin)
    }

    /// Runs `kindred ARGS` with text on standard input.
    static func run(_ arguments: [String], stdinText: String) throws -> ChildProcess.Result {
        try run(arguments, stdin: Array(stdinText.utf8))
    }
}
