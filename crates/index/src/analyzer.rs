//! The analyzer: how text becomes index terms, the same way for documents and queries.
//!
//! - A *word* is a run of letters, digits and combining marks (so `e` + U+0301 stays one word).
//!   Each word is folded with NFKC and full Unicode lower-casing, so `Café` (NFC), `Cafe\u{301}`
//!   (NFD), `ＣＡＦＥ` (full width) and `café` give one term.
//! - Han, Hiragana, Katakana and Hangul have no spaces between words: a run of them is indexed
//!   as overlapping character bigrams (a lone character as itself), Lucene's CJK bigram scheme,
//!   so a name written without spaces inside a sentence is found by a phrase of its bigrams.
//! - Chinese is also segmented into words ([`Words`], the index's `words` field): each run of
//!   Han characters cut by jieba (its dictionary plus HMM for words it lacks, such as names).
//!   Bigrams find every substring of two characters or more; the words rank a hit on the whole
//!   word (`张伟` in `张伟向李娜转账`) above one that only spans two words (`主张伟大`), and find
//!   a one-character word inside a run. Japanese and Korean keep bigrams only (no dictionary of
//!   theirs is embedded: lindera's IPADIC alone is tens of megabytes).
//!
//! Offsets of each token are byte offsets into the original text (before folding), which is
//! what the search uses to point at a hit.

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// The name the analyzer is registered under in every index.
pub const NAME: &str = "masf";

/// Longest term kept (bytes after folding); longer words are cut (binary noise).
const MAX_TERM: usize = 64;

/// Whether `c` is written without spaces between words (bigrammed).
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3100..=0x312F    // Bopomofo
        | 0x31F0..=0x31FF    // Katakana extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF66..=0xFF9F    // half-width Katakana
        | 0x20000..=0x3FFFF) // CJK extensions B…
}

/// Whether `c` is a Han character (Chinese, and the kanji of Japanese): what jieba segments.
pub fn is_han(c: char) -> bool {
    matches!(c as u32,
        0x3400..=0x4DBF      // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0x20000..=0x3FFFF) // CJK extensions B…
}

/// Whether `text` holds a Han character (cheap on text without any: only bytes from 0xE3 on
/// can start one).
pub fn has_han(text: &str) -> bool {
    text.bytes().any(|b| b >= 0xE3) && text.chars().any(is_han)
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// Folds one word: NFKC, then lower case.
pub fn fold(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    fold_into(word, &mut out);
    out
}

/// [`fold`] into `out` (cleared first), so a tokenizer reuses one buffer for every term. ASCII
/// words, most of most texts, are their own NFKC form and are only lower-cased; other words are
/// normalised only when the quick check says they may not be NFKC already.
fn fold_into(word: &str, out: &mut String) {
    out.clear();
    if word.is_ascii() {
        out.push_str(word);
        out.make_ascii_lowercase();
    } else if unicode_normalization::is_nfkc_quick(word.chars())
        == unicode_normalization::IsNormalized::Yes
    {
        for c in word.chars() {
            out.extend(c.to_lowercase());
        }
    } else {
        for c in word.nfkc() {
            out.extend(c.to_lowercase());
        }
    }
    if out.len() > MAX_TERM {
        let mut end = MAX_TERM;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
    }
}

/// The tokens of `text`: `(term, byte start, byte end)` in order.
pub fn tokens(text: &str) -> Vec<(String, usize, usize)> {
    Tokens::new(text).collect()
}

/// The tokens of a text, made as they are asked for (a search that looks for its first match
/// in a long text stops there; the indexer never holds more than one).
pub struct Tokens<'a> {
    text: &'a str,
    /// Byte offset of the next character to look at.
    pos: usize,
    /// `pos` is the second or later character of a CJK run (its bigram with the character
    /// before was given).
    in_run: bool,
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a str) -> Self {
        Self {
            text,
            pos: 0,
            in_run: false,
        }
    }

    /// The next token, its folded term written into `term`: `(byte start, byte end)`.
    fn next_into(&mut self, term: &mut String) -> Option<(usize, usize)> {
        let text = self.text;
        let bytes = text.as_bytes();
        loop {
            let start = self.pos;
            let &b = bytes.get(start)?;
            if b < 0x80 {
                self.in_run = false;
                if !b.is_ascii_alphanumeric() {
                    self.pos += 1;
                    continue;
                }
                // An ASCII word, unless a non-ASCII word character follows it.
                let mut end = start + 1;
                while end < bytes.len() && bytes[end].is_ascii_alphanumeric() {
                    end += 1;
                }
                if end < bytes.len() && bytes[end] >= 0x80 {
                    end = self.word_end(end);
                }
                self.pos = end;
                fold_into(&text[start..end], term);
                return Some((start, end));
            }
            let c = text[start..].chars().next()?;
            let next = start + c.len_utf8();
            if is_cjk(c) {
                // A run of CJK characters: overlapping bigrams (a lone character alone).
                let after = text[next..].chars().next().filter(|&d| is_cjk(d));
                let was_in_run = std::mem::replace(&mut self.in_run, after.is_some());
                self.pos = next;
                match after {
                    Some(d) => {
                        let end = next + d.len_utf8();
                        fold_into(&text[start..end], term);
                        return Some((start, end));
                    }
                    None if !was_in_run => {
                        fold_into(&text[start..next], term);
                        return Some((start, next));
                    }
                    None => continue,
                }
            }
            self.in_run = false;
            if is_word(c) {
                let end = self.word_end(next);
                self.pos = end;
                fold_into(&text[start..end], term);
                if term.is_empty() {
                    continue;
                }
                return Some((start, end));
            }
            self.pos = next;
        }
    }

    /// Where the word that goes on at `from` ends: the first character that is no word
    /// character or is CJK.
    fn word_end(&self, from: usize) -> usize {
        let mut end = from;
        for c in self.text[from..].chars() {
            if !is_word(c) || is_cjk(c) {
                break;
            }
            end += c.len_utf8();
        }
        end
    }
}

impl Iterator for Tokens<'_> {
    type Item = (String, usize, usize);

    fn next(&mut self) -> Option<Self::Item> {
        let mut term = String::new();
        let (from, to) = self.next_into(&mut term)?;
        Some((term, from, to))
    }
}

/// Where a token stream takes its terms from: the next one written into `term`, with its
/// byte range in the text.
pub trait Terms {
    fn next_into(&mut self, term: &mut String) -> Option<(usize, usize)>;
}

impl Terms for Tokens<'_> {
    fn next_into(&mut self, term: &mut String) -> Option<(usize, usize)> {
        Tokens::next_into(self, term)
    }
}

/// The analyzer as a tantivy tokenizer.
#[derive(Clone, Default)]
pub struct Analyzer;

/// The terms of one text, handed out one at a time into one reused token.
pub struct Stream<T> {
    terms: T,
    token: Token,
    position: usize,
}

impl<T> Stream<T> {
    fn new(terms: T) -> Self {
        Stream {
            terms,
            token: Token::default(),
            position: 0,
        }
    }
}

impl Tokenizer for Analyzer {
    type TokenStream<'a> = Stream<Tokens<'a>>;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> Stream<Tokens<'a>> {
        Stream::new(Tokens::new(text))
    }
}

impl<T: Terms> TokenStream for Stream<T> {
    fn advance(&mut self) -> bool {
        match self.terms.next_into(&mut self.token.text) {
            Some((from, to)) => {
                self.token.offset_from = from;
                self.token.offset_to = to;
                self.token.position = self.position;
                self.token.position_length = 1;
                self.position += 1;
                true
            }
            None => false,
        }
    }
    fn token(&self) -> &Token {
        &self.token
    }
    fn token_mut(&mut self) -> &mut Token {
        &mut self.token
    }
}

/// The name of the word segmenter ([`Words`]) in every index.
pub const WORDS: &str = "masf_words";

static JIEBA: std::sync::LazyLock<jieba_rs::Jieba> = std::sync::LazyLock::new(jieba_rs::Jieba::new);

/// The words of the Han runs of `text` as jieba cuts them, folded like every term:
/// `(term, byte start, byte end)`. Other text gives none.
pub fn words(text: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if !is_han(c) {
            continue;
        }
        let mut end = start + c.len_utf8();
        while let Some(&(i, d)) = chars.peek() {
            if !is_han(d) {
                break;
            }
            end = i + d.len_utf8();
            chars.next();
        }
        for w in JIEBA.cut(&text[start..end], true) {
            out.push((fold(w.word), start + w.byte_start, start + w.byte_end));
        }
    }
    out
}

/// Chinese word segmentation as a tantivy tokenizer (the `words` field).
#[derive(Clone, Default)]
pub struct Words;

/// The words of one text, cut once.
pub struct WordList(std::vec::IntoIter<(String, usize, usize)>);

impl Terms for WordList {
    fn next_into(&mut self, term: &mut String) -> Option<(usize, usize)> {
        let (text, from, to) = self.0.next()?;
        *term = text;
        Some((from, to))
    }
}

impl Tokenizer for Words {
    type TokenStream<'a> = Stream<WordList>;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> Stream<WordList> {
        Stream::new(WordList(words(text).into_iter()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        tokens(text).into_iter().map(|t| t.0).collect()
    }

    #[test]
    fn nfc_nfd_width_and_case_give_one_term() {
        let nfc = terms("Caf\u{e9}");
        assert_eq!(nfc, ["café"]);
        assert_eq!(terms("CAFE\u{301}"), nfc);
        assert_eq!(terms("ＣＡＦ\u{c9}"), nfc);
    }

    #[test]
    fn cjk_runs_become_bigrams_with_their_offsets() {
        let t = tokens("付款给张伟 ok");
        let got: Vec<_> = t.iter().map(|x| x.0.as_str()).collect();
        assert_eq!(got, ["付款", "款给", "给张", "张伟", "ok"]);
        assert_eq!((t[3].1, t[3].2), (9, 15));
        assert_eq!(terms("张"), ["张"]);
    }

    #[test]
    fn punctuation_splits_and_offsets_are_original_bytes() {
        let t = tokens("a-b  Ünïcode.");
        assert_eq!(t[2], ("ünïcode".to_string(), 5, 14));
    }

    #[test]
    fn ascii_words_run_on_into_non_ascii_letters_and_stop_at_cjk() {
        // an ASCII start followed by a combining mark or a non-ASCII letter is one word
        assert_eq!(terms("CAFE\u{301}s naïve"), ["cafés", "naïve"]);
        // CJK between words: its own token, bigrams for runs, none across the word
        assert_eq!(terms("a张b"), ["a", "张", "b"]);
        assert_eq!(terms("ok张伟ok 付款"), ["ok", "张伟", "ok", "付款"]);
        assert_eq!(terms("张伟李"), ["张伟", "伟李"]);
        // full-width Latin folds to ASCII; compatibility ideographs to unified ones
        assert_eq!(terms("ＡＢＣ 豈"), ["abc", "豈"]);
        // offsets are the original bytes
        let t = tokens("x 伟李 y");
        assert_eq!((t[1].1, t[1].2), (2, 8));
        assert_eq!((t[2].1, t[2].2), (9, 10));
    }

    /// The analyzer's rule written the plain way (characters, NFKC for every word): the fast
    /// paths must give the same terms and offsets.
    fn reference(text: &str) -> Vec<(String, usize, usize)> {
        let slow = |w: &str| {
            let mut out: String = w.nfkc().flat_map(char::to_lowercase).collect();
            let mut end = out.len().min(MAX_TERM);
            while !out.is_char_boundary(end) {
                end -= 1;
            }
            out.truncate(end);
            out
        };
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let end_of = |k: usize| chars[k].0 + chars[k].1.len_utf8();
        let mut out = Vec::new();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k].1;
            if is_cjk(c) {
                let mut j = k;
                while j + 1 < chars.len() && is_cjk(chars[j + 1].1) {
                    j += 1;
                }
                if j == k {
                    out.push((slow(&text[chars[k].0..end_of(k)]), chars[k].0, end_of(k)));
                }
                for i in k..j {
                    out.push((
                        slow(&text[chars[i].0..end_of(i + 1)]),
                        chars[i].0,
                        end_of(i + 1),
                    ));
                }
                k = j + 1;
            } else if is_word(c) {
                let mut j = k;
                while j + 1 < chars.len() && is_word(chars[j + 1].1) && !is_cjk(chars[j + 1].1) {
                    j += 1;
                }
                let term = slow(&text[chars[k].0..end_of(j)]);
                if !term.is_empty() {
                    out.push((term, chars[k].0, end_of(j)));
                }
                k = j + 1;
            } else {
                k += 1;
            }
        }
        out
    }

    #[test]
    fn fast_paths_give_the_reference_terms() {
        let alphabet: Vec<char> = "aZ09 _-.\n\tÉé\u{301}\u{308}ßİıＡ１豈张伟付款カタｶﾀ한국ﬁ²½Ωω@+"
            .chars()
            .collect();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for len in 0..400 {
            let text: String = (0..len % 40)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    alphabet[(seed % alphabet.len() as u64) as usize]
                })
                .collect();
            assert_eq!(tokens(&text), reference(&text), "{text:?}");
        }
        let long = "x".repeat(100) + "É" + &"y".repeat(10);
        assert_eq!(tokens(&long), reference(&long));
    }

    #[test]
    fn han_runs_are_cut_into_words_with_their_offsets() {
        let text = "ok 张伟向李娜转账五万元，主张伟大 ok";
        let w = words(text);
        let got: Vec<&str> = w.iter().map(|t| t.0.as_str()).collect();
        assert_eq!(
            got,
            ["张伟", "向", "李娜", "转账", "五万元", "主张", "伟大"]
        );
        for (term, from, to) in &w {
            assert_eq!(&text[*from..*to], term);
        }
        assert!(words("no han here, カタカナ 한국").is_empty());
        assert!(has_han("x 付款") && !has_han("x カタカナ é"));
    }
}
