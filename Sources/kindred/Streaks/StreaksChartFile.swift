import Foundation

/// Why `--chart` could not write its file.
enum StreaksChartError: Error, CustomStringConvertible {
    /// The file name ends neither in `.svg` nor in `.png`.
    case unsupportedFormat(file: String)
    /// A PNG was asked for and no SVG-to-PNG converter is on `PATH`.
    case noConverter(file: String)
    /// The converter ran but failed, or wrote something that is not a PNG.
    case converterFailed(tool: String, message: String)
    /// The file (or the converter's temporary files) could not be written.
    case cannotWrite(file: String, reason: String)

    /// The stable code printed with the message (and in `--json` errors).
    var code: String {
        switch self {
        case .unsupportedFormat: "unsupported_chart_format"
        case .noConverter: "no_png_converter"
        case .converterFailed: "png_converter_failed"
        case .cannotWrite: "cannot_write_chart"
        }
    }

    /// One line for the player.
    var description: String {
        switch self {
        case .unsupportedFormat(let file):
            "--chart: \(file) must end in .svg or .png"
        case .noConverter(let file):
            "--chart: cannot write the PNG \(file): no SVG-to-PNG converter on PATH; install rsvg-convert "
                + "(Debian/Ubuntu package librsvg2-bin) or ImageMagick's convert (package imagemagick), or write .svg"
        case .converterFailed(let tool, let message):
            "--chart: \(tool) could not convert the chart to PNG: \(message)"
        case .cannotWrite(let file, let reason):
            "cannot write \(file): \(reason)"
        }
    }
}

/// Writes a chart's SVG to the file `--chart` names: as it is for `.svg`, converted for `.png` by the
/// first converter found on `PATH` (librsvg's `rsvg-convert`, else ImageMagick's `convert`).
enum StreaksChartFile {
    /// The file formats `--chart` writes.
    enum Format: String {
        /// The SVG document as drawn.
        case svg
        /// A PNG rendered from it.
        case png
    }

    /// An SVG-to-PNG converter: the program and its arguments for an input SVG and an output PNG.
    struct Converter {
        /// The program's name, looked up on `PATH`.
        let tool: String
        /// The arguments that convert `input` (SVG) to `output` (PNG).
        let arguments: @Sendable (_ input: String, _ output: String) -> [String]
    }

    /// The converters tried, in order.
    static let converters = [
        Converter(tool: "rsvg-convert") { input, output in ["--format", "png", "--output", output, input] },
        Converter(tool: "convert") { input, output in ["svg:" + input, "png:" + output] },
    ]

    /// The eight bytes every PNG file starts with.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The format for `file`, by its extension (any case).
    static func format(of file: String) throws(StreaksChartError) -> Format {
        guard let format = Format(rawValue: URL(fileURLWithPath: file).pathExtension.lowercased()) else {
            throw .unsupportedFormat(file: file)
        }
        return format
    }

    /// Writes `svg` to `file` in the format its extension names, replacing the file atomically.
    static func write(_ svg: String, to file: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(StreaksChartError) {
        switch try format(of: file) {
        case .svg: try save(Data(svg.utf8), to: file)
        case .png: try save(png(from: svg, file: file, environment: environment), to: file)
        }
    }

    /// `svg` rendered as PNG by the first converter on `PATH`.
    static func png(from svg: String, file: String, environment: [String: String]) throws(StreaksChartError) -> Data {
        guard let (converter, path) = converters.lazy.compactMap({ converter in
            executable(converter.tool, environment: environment).map { (converter, $0) }
        }).first else {
            throw .noConverter(file: file)
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-chart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let input = work.appendingPathComponent("chart.svg"), output = work.appendingPathComponent("chart.png")
        do {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try Data(svg.utf8).write(to: input)
        } catch {
            throw .cannotWrite(file: input.path, reason: error.localizedDescription)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = converter.arguments(input.path, output.path)
        process.environment = environment
        let messages = Pipe()
        process.standardOutput = messages
        process.standardError = messages
        process.standardInput = FileHandle.nullDevice
        let said: String
        do {
            try process.run()
            said = String(decoding: messages.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
        } catch {
            throw .converterFailed(tool: path, message: error.localizedDescription)
        }
        let firstLine = said.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw .converterFailed(tool: path, message: "exit status \(process.terminationStatus)" + (firstLine.isEmpty ? "" : ": \(firstLine)"))
        }
        guard let data = try? Data(contentsOf: output), data.starts(with: pngSignature) else {
            throw .converterFailed(tool: path, message: "it wrote no PNG")
        }
        return data
    }

    /// The full path of `tool` in `PATH`'s folders, or nil when none holds an executable of that name.
    static func executable(_ tool: String, environment: [String: String]) -> String? {
        for folder in (environment["PATH"] ?? "").split(separator: ":") where !folder.isEmpty {
            let path = URL(fileURLWithPath: String(folder)).appendingPathComponent(tool).path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Writes `data` to `file` atomically.
    private static func save(_ data: Data, to file: String) throws(StreaksChartError) {
        do {
            try data.write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw .cannotWrite(file: file, reason: error.localizedDescription)
        }
    }
}
