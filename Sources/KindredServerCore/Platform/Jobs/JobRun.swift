import Foundation

/// How a run ended.
public enum JobOutcome: String, Sendable, Codable, Equatable {
    /// The body returned.
    case ok
    /// The body threw.
    case failed
}

/// One finished run, as recorded in the job's history.
public struct JobRun: Sendable, Equatable, Codable {
    /// The job's name.
    public var name: String
    /// Why it ran.
    public var trigger: JobTrigger
    /// When it started.
    public var startedAt: Date
    /// How long it took, in milliseconds.
    public var durationMilliseconds: Int64
    /// How it ended.
    public var outcome: JobOutcome
    /// The body's summary, or the error's description.
    public var message: String
}

/// A job's schedule and persisted state, as `kindred jobs list` shows it.
public struct JobStatus: Sendable, Equatable, Codable {
    /// The job's name.
    public var name: String
    /// The cron expression.
    public var schedule: String
    /// The IANA time zone identifier.
    public var timeZone: String
    /// When it runs next.
    public var nextRunAt: Date
    /// The most recent run, if any.
    public var lastRun: JobRun?
}
