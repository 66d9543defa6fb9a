//! The Naruto Collectible Card Game (Bandai), digest §1, rule prefix `NAR`.
