// kindred-fuzz: libFuzzer's driver over one of KindredFuzzTargets' targets.
//
//   kindred-fuzz list                          the targets, one `name<TAB>summary` line each
//   kindred-fuzz NAME [libFuzzer arguments]    fuzz NAME (sanitizer build only; scripts/fuzz builds it)
//   kindred-fuzz NAME FILE|DIR...              without libFuzzer (an ordinary build): replay the files
//
// libFuzzer is linked only by scripts/fuzz's build (`-sanitize=fuzzer,address -DKINDRED_FUZZ`),
// where this file calls its driver `LLVMFuzzerRunDriver` directly. libFuzzer's own `main` is
// linked too but not used: SwiftPM links this executable's entry point as `main`, which wins.
// The ordinary build has no libFuzzer and no KINDRED_FUZZ, and replays inputs instead.
import Foundation
import KindredFuzzTargets

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The target the libFuzzer callback runs. Written once, before the driver starts and before any
/// other thread exists; only read afterwards (libFuzzer calls back on the thread that started it).
nonisolated(unsafe) var selectedTarget: FuzzTarget?

/// libFuzzer's callback: one input through the selected target; a finding aborts, so libFuzzer
/// saves the input as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let target = selectedTarget else { return 0 }
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try target.run(input)
    } catch {
        FileHandle.standardError.write(Data("kindred-fuzz: finding: \(error)\n".utf8))
        abort()
    }
    return 0
}

#if KINDRED_FUZZ
/// libFuzzer's driver: `int LLVMFuzzerRunDriver(int *argc, char ***argv,
/// int (*callback)(const uint8_t *, size_t))`, from the runtime `-sanitize=fuzzer` links.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif

/// Prints `message` on stderr and exits with `status`.
func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("kindred-fuzz: \(message)\n".utf8))
    exit(status)
}

/// Replays files (and the files of folders) through `target` without libFuzzer.
/// - Returns: the number of findings.
func replay(_ paths: [String], through target: FuzzTarget) -> Int {
    var files: [String] = []
    for path in paths {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { fail("no such file: \(path)") }
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            files += names.sorted().map { "\(path)/\($0)" }
        } else {
            files.append(path)
        }
    }
    var findings = 0
    for file in files {
        guard let data = FileManager.default.contents(atPath: file) else { fail("cannot read \(file)") }
        do {
            try target.run(Array(data))
        } catch {
            findings += 1
            print("FINDING \(file): \(error)")
        }
    }
    print("replayed \(files.count) inputs through \(target.name): \(findings) findings")
    return findings
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: kindred-fuzz list | NAME [libFuzzer arguments | FILE...]") }
if arguments[1] == "list" {
    for target in FuzzTargets.all { print("\(target.name)\t\(target.summary)") }
    exit(0)
}
guard let target = FuzzTargets.named(arguments[1]) else {
    fail("no target \(arguments[1]); targets: \(FuzzTargets.names.joined(separator: ", "))")
}
selectedTarget = target

#if KINDRED_FUZZ
// libFuzzer sees the program name and the arguments after NAME.
var driverArguments: [UnsafeMutablePointer<CChar>?] = ([arguments[0]] + arguments.dropFirst(2)).map { strdup($0) } + [nil]
var argc = CInt(driverArguments.count - 1)
let status = driverArguments.withUnsafeMutableBufferPointer { buffer -> CInt in
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput)
}
exit(status)
#else
guard arguments.count > 2 else { fail("this build has no libFuzzer (build it with scripts/fuzz); give files to replay") }
exit(replay(Array(arguments.dropFirst(2)), through: target) == 0 ? 0 : 1)
#endif
