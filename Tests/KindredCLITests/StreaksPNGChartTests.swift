import Foundation
import KindredTestSupport
import Testing

/// `kindred streaks stats|recap --chart FILE.png`: PNG through the converter on `PATH` (rsvg-convert,
/// else ImageMagick's convert), and typed errors when there is none, when it fails, or for another
/// extension. The conversions need rsvg-convert (Debian's librsvg2-bin).
@Suite struct StreaksPNGChartTests: StreaksProfileSuite {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    /// The rsvg-convert on this machine's `PATH`, if any.
    static let rsvgConvert: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .map { "\($0)/rsvg-convert" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs `kindred streaks ARGS --profile PROFILE` in UTC with `PATH` set to `path`.
    func streaks(_ arguments: [String], path: String) throws -> ChildProcess.Result {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("KINDRED_") }
        environment["TZ"] = "UTC"
        environment["PATH"] = path
        return try ChildProcess.run(
            ChildProcess.kindredExecutable.path, ["streaks"] + arguments + ["--profile", profile], input: [], environment: environment)
    }

    /// A folder holding only the given executable scripts, by name.
    func bin(_ scripts: [String: String]) throws -> String {
        let bin = folder.url.appendingPathComponent("bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for (name, script) in scripts {
            let file = bin.appendingPathComponent(name)
            try Data(script.utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }
        return bin.path
    }

    func file(_ name: String) -> String { folder.url.appendingPathComponent(name).path }

    /// Wordle 3 and 4 on 2026-03-09 and 03-10.
    func record() throws {
        _ = try json(["add", "--at", "2026-03-09T08:00:00Z", "Wordle 1,399 4/6"])
        _ = try json(["add", "--at", "2026-03-10T08:00:00Z", "Wordle 1,400 3/6"])
    }

    /// The PNG's width and height from its IHDR chunk, after checking the signature.
    static func pngSize(_ path: String) throws -> (width: Int, height: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(bytes.count > 24)
        #expect(Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Array(bytes[8..<16]) == [0, 0, 0, 13] + Array("IHDR".utf8))
        let number = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    /// The `width` and `height` of an SVG file's root element.
    static func svgSize(_ path: String) throws -> (width: Int, height: Int) {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let root = try #require(text.components(separatedBy: "<svg ").dropFirst().first?.components(separatedBy: ">").first)
        func attribute(_ name: String) throws -> Int {
            let value = root.components(separatedBy: " \(name)=\"").dropFirst().first?.components(separatedBy: "\"").first
            guard let number = value.flatMap({ Int($0) }) else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no \(name) in \(path)"])
            }
            return number
        }
        return (try attribute("width"), try attribute("height"))
    }

    @Test(.enabled(if: rsvgConvert != nil, "needs rsvg-convert (Debian's librsvg2-bin)"))
    func statsAndRecapWritePNGsOfTheSVGsSize() throws {
        try record()
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for (arguments, name) in [(["stats", "--game", "wordle", "--range", "30"], "guesses"), (["stats", "--range", "30"], "calendar"), (["recap", "--week", "2026-W11"], "week")] {
            let at = ["--at", "2026-03-10T20:00:00Z", "--json"]
            #expect(try streaks(arguments + ["--chart", file("\(name).svg")] + at, path: path).status == 0)
            let png = try streaks(arguments + ["--chart", file("\(name).PNG")] + at, path: path)
            #expect(png.status == 0, "\(png.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(png.text.utf8)) as? [String: Any])
            #expect(object["chart"] as? String == file("\(name).PNG"))
            let size = try Self.pngSize(file("\(name).PNG")), svg = try Self.svgSize(file("\(name).svg"))
            #expect(size.width == svg.width && size.height == svg.height && size.width > 100, "\(name): \(size) vs \(svg)")
        }
    }

    @Test(.enabled(if: rsvgConvert != nil, "needs rsvg-convert to stand behind the fake convert"))
    func imageMagicksConvertIsTheFallback() throws {
        try record()
        let log = file("convert.log")
        let path = try bin(["convert": "#!/bin/sh\necho \"$@\" > '\(log)'\nexec '\(Self.rsvgConvert ?? "")' --format png --output \"${2#png:}\" \"${1#svg:}\"\n"])
        let result = try streaks(["recap", "--week", "2026-W11", "--chart", file("week.png")], path: path)
        #expect(result.status == 0, "\(result.stderr)")
        let arguments = try String(contentsOfFile: log, encoding: .utf8)
        #expect(arguments.hasPrefix("svg:") && arguments.contains(" png:") && arguments.hasSuffix("chart.png\n"))
        #expect(try Self.pngSize(file("week.png")).width > 100)
    }

    @Test func noConverterIsATypedErrorNamingThePackage() throws {
        try record()
        let empty = try bin([:])
        let text = try streaks(["stats", "--chart", file("chart.png")], path: empty)
        #expect(text.status != 0 && text.text.isEmpty)
        #expect(text.stderr.contains("no SVG-to-PNG converter on PATH") && text.stderr.contains("librsvg2-bin"))
        #expect(text.stderr.contains("[no_png_converter]"))
        let json = try streaks(["recap", "--chart", file("week.png"), "--json"], path: empty)
        #expect(json.status != 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
        #expect((object["error"] as? [String: Any])?["code"] as? String == "no_png_converter")
        #expect(!FileManager.default.fileExists(atPath: file("chart.png")) && !FileManager.default.fileExists(atPath: file("week.png")))
        // An SVG needs no converter.
        #expect(try streaks(["stats", "--chart", file("chart.svg")], path: empty).status == 0)
    }

    @Test func aFailingConverterIsATypedError() throws {
        try record()
        let failing = try bin(["rsvg-convert": "#!/bin/sh\necho 'boom: cannot render' >&2\nexit 3\n"])
        let failed = try streaks(["stats", "--chart", file("chart.png")], path: failing)
        #expect(failed.status != 0 && failed.stderr.contains("exit status 3: boom: cannot render [png_converter_failed]"))
        let silent = try bin(["rsvg-convert": "#!/bin/sh\nexit 0\n"])
        let nothing = try streaks(["stats", "--chart", file("chart.png")], path: silent)
        #expect(nothing.status != 0 && nothing.stderr.contains("it wrote no PNG [png_converter_failed]"))
        #expect(!FileManager.default.fileExists(atPath: file("chart.png")))
    }

    @Test func otherExtensionsAreRefused() throws {
        let result = try streaks(["stats", "--chart", file("chart.jpg"), "--json"], path: "/usr/bin:/bin")
        #expect(result.status != 0 && result.stderr.contains("must end in .svg or .png [unsupported_chart_format]"))
        #expect(!FileManager.default.fileExists(atPath: file("chart.jpg")))
    }
}
