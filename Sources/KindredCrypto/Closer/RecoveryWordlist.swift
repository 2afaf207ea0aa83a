/// Closer's recovery-phrase word list: 256 short, common, lower-case English words, so each word
/// carries exactly 8 bits. Every word has 4–8 letters, its first four letters are unique in the
/// list (so a four-letter prefix identifies it), no word is a prefix of another, and the list
/// avoids homophones, US/UK spelling variants and offensive words. Index = position (0…255).
/// Spec: `docs/wire-formats.md`, "Recovery phrase" (the full list is reproduced there).
public enum RecoveryWordlist {
    /// The 256 words, in index order (alphabetical).
    public static let words: [String] = [
        "acorn", "actor", "album", "alpine", "amber", "anchor", "ankle", "apple",  // 0–7
        "apron", "arrow", "artist", "atlas", "autumn", "avocado", "bacon", "badge",  // 8–15
        "bakery", "balloon", "bamboo", "banana", "barrel", "basket", "beetle", "bench",  // 16–23
        "bicycle", "blanket", "blossom", "bottle", "bracelet", "branch", "breeze", "bridge",  // 24–31
        "bubble", "bucket", "buffalo", "cabin", "cactus", "camera", "candle", "canyon",  // 32–39
        "carpet", "castle", "chess", "circle", "cliff", "clock", "cloud", "clover",  // 40–47
        "coconut", "coffee", "comet", "copper", "cotton", "crayon", "cricket", "crystal",  // 48–55
        "cupcake", "curtain", "daisy", "dance", "desk", "diamond", "dinner", "doctor",  // 56–63
        "dolphin", "dragon", "dream", "drum", "duck", "eagle", "earth", "easel",  // 64–71
        "echo", "elbow", "engine", "envelope", "eraser", "fabric", "falcon", "family",  // 72–79
        "feather", "fence", "field", "flag", "flame", "flute", "forest", "fossil",  // 80–87
        "fountain", "friend", "frog", "fruit", "galaxy", "garden", "garlic", "gecko",  // 88–95
        "giraffe", "glacier", "glove", "goat", "golden", "grape", "gravy", "guitar",  // 96–103
        "hammer", "harvest", "hedge", "helmet", "hippo", "honey", "hotel", "iceberg",  // 104–111
        "igloo", "island", "ivory", "jacket", "jaguar", "jelly", "journey", "jungle",  // 112–119
        "kayak", "kettle", "kitchen", "kitten", "koala", "ladder", "lagoon", "lantern",  // 120–127
        "lemon", "letter", "lizard", "lobster", "mango", "maple", "marble", "meadow",  // 128–135
        "melon", "mirror", "mitten", "mosaic", "mountain", "muffin", "museum", "music",  // 136–143
        "napkin", "nature", "nest", "noodle", "north", "oasis", "ocean", "octopus",  // 144–151
        "olive", "onion", "orange", "orbit", "ostrich", "otter", "paddle", "palace",  // 152–159
        "panda", "paper", "parrot", "pasta", "peanut", "pebble", "pelican", "pencil",  // 160–167
        "penguin", "pepper", "piano", "picnic", "pillow", "pilot", "planet", "pocket",  // 168–175
        "potato", "puffin", "pumpkin", "puppy", "puzzle", "pyramid", "quiet", "quilt",  // 176–183
        "rabbit", "radio", "rainbow", "raven", "recipe", "ribbon", "river", "robin",  // 184–191
        "rocket", "ruby", "saddle", "salad", "salmon", "sandal", "scarf", "school",  // 192–199
        "season", "shadow", "shell", "shovel", "silver", "skate", "sketch", "smile",  // 200–207
        "snail", "soccer", "sofa", "spider", "spoon", "spring", "stamp", "stone",  // 208–215
        "sugar", "summer", "sunset", "sweater", "swing", "table", "teapot", "tennis",  // 216–223
        "thunder", "ticket", "tiger", "toast", "tomato", "tooth", "tower", "tractor",  // 224–231
        "trail", "tulip", "tunnel", "turtle", "unicorn", "uniform", "valley", "vanilla",  // 232–239
        "velvet", "violin", "volcano", "voyage", "waffle", "wagon", "walnut", "walrus",  // 240–247
        "window", "winter", "wizard", "wolf", "yacht", "yellow", "zebra", "zipper",  // 248–255
    ]
}
