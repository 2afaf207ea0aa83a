/// StreakSync's device network side (the account, sync, friends and leaderboards over
/// KindredClient's session and the generated StreakAPI client): see docs/streaksync-device.md.
public enum StreakClientModule {}
