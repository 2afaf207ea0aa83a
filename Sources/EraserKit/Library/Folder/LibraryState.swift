/// What a `FolderPhotoLibrary` holds in memory between calls: the whole index by id, and the ids
/// of the visible assets in sight, sorted (the listing's order). Guarded by the library's mutex.
struct LibraryState {
    var records: [AssetID: IndexedAsset] = [:]
    /// Visible assets in sight, by id ascending.
    var visible: [AssetID] = []
    var lastRefresh = LibraryRefresh()

    /// Builds the listing from `records`.
    init(records: [AssetID: IndexedAsset], scope: LibraryScope, lastRefresh: LibraryRefresh) {
        self.records = records
        self.lastRefresh = lastRefresh
        visible = records.values.filter { $0.state == .visible && scope.contains($0.path) }.map(\.id).sorted()
    }

    /// Stores `record`, listing it when it is visible and in sight.
    mutating func put(_ record: IndexedAsset, scope: LibraryScope) {
        records[record.id] = record
        let index = insertionIndex(record.id)
        let listed = index < visible.count && visible[index] == record.id
        let shouldList = record.state == .visible && scope.contains(record.path)
        if shouldList && !listed { visible.insert(record.id, at: index) }
        if !shouldList && listed { visible.remove(at: index) }
    }

    /// Forgets `id`.
    mutating func drop(_ id: AssetID) {
        records[id] = nil
        let index = insertionIndex(id)
        if index < visible.count && visible[index] == id { visible.remove(at: index) }
    }

    /// The first index in `visible` whose id is not below `id` (binary search).
    func insertionIndex(_ id: AssetID) -> Int {
        var low = 0, high = visible.count
        while low < high {
            let middle = (low + high) / 2
            if visible[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
