//! `Accept-Encoding` negotiation (RFC 9110 §12.5.3: q-values, `*`, `x-gzip`), for pages and
//! assets alike. Written here: the crates that parse it are archived or alpha, and it is a
//! few lines.

use poem::http::HeaderValue;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coding {
    Identity,
    Gzip,
    Brotli,
    /// Only for a response made for one request (`Representation::once`): zstd at its
    /// default level compresses a page as small as gzip's quick settings in a third of the
    /// time. Stored pages are polished to brotli and gzip, which are smaller still.
    Zstd,
}

impl Coding {
    pub(super) fn suffix(self) -> &'static str {
        match self {
            Coding::Identity => "",
            Coding::Gzip => "-gz",
            Coding::Brotli => "-br",
            Coding::Zstd => "-zst",
        }
    }

    pub(super) fn header(self) -> Option<HeaderValue> {
        match self {
            Coding::Identity => None,
            Coding::Gzip => Some(HeaderValue::from_static("gzip")),
            Coding::Brotli => Some(HeaderValue::from_static("br")),
            Coding::Zstd => Some(HeaderValue::from_static("zstd")),
        }
    }
}

/// The q-value of one `Accept-Encoding` element, in thousandths; `None` when malformed.
fn quality(params: &str) -> Option<u16> {
    let mut q = 1000;
    for param in params.split(';') {
        let (name, value) = match param.split_once('=') {
            Some((n, v)) => (n.trim(), v.trim()),
            None => continue,
        };
        if !name.eq_ignore_ascii_case("q") {
            continue;
        }
        let (int, frac) = value.split_once('.').unwrap_or((value, ""));
        if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let thousandths = format!("{frac:0<3}").parse::<u16>().ok()?;
        q = match int {
            "0" => thousandths,
            "1" if thousandths == 0 => 1000,
            _ => return None,
        };
    }
    Some(q)
}

/// The codings a response is held in, besides identity.
#[derive(Clone, Copy, Debug, Default)]
pub struct Offered {
    pub gzip: bool,
    pub brotli: bool,
    pub zstd: bool,
}

/// The coding to answer with, given the request's `Accept-Encoding` and which twins exist.
/// Highest q-value wins; on a tie the smaller coding (brotli, then zstd, then gzip). A
/// coding with `q=0` is never chosen; without the header, or when nothing acceptable
/// exists, identity.
pub fn choose(accept: Option<&HeaderValue>, has_gzip: bool, has_brotli: bool) -> Coding {
    choose_among(
        accept,
        Offered {
            gzip: has_gzip,
            brotli: has_brotli,
            zstd: false,
        },
    )
}

/// [`choose`], where zstd may be offered too.
pub fn choose_among(accept: Option<&HeaderValue>, offered: Offered) -> Coding {
    let Some(accept) = accept.and_then(|v| v.to_str().ok()) else {
        return Coding::Identity;
    };
    let (mut br, mut gzip, mut zstd, mut star) = (None, None, None, None);
    for element in accept.split(',') {
        let (name, params) = element.split_once(';').unwrap_or((element, ""));
        let Some(q) = quality(params) else { continue };
        let name = name.trim();
        if name.eq_ignore_ascii_case("br") {
            br = Some(q);
        } else if name.eq_ignore_ascii_case("gzip") || name.eq_ignore_ascii_case("x-gzip") {
            gzip = Some(q);
        } else if name.eq_ignore_ascii_case("zstd") {
            zstd = Some(q);
        } else if name == "*" {
            star = Some(q);
        }
    }
    let weigh = |offered: bool, q: Option<u16>| if offered { q.or(star).unwrap_or(0) } else { 0 };
    let br = weigh(offered.brotli, br);
    let zstd = weigh(offered.zstd, zstd);
    let gzip = weigh(offered.gzip, gzip);
    if br > 0 && br >= zstd && br >= gzip {
        Coding::Brotli
    } else if zstd > 0 && zstd >= gzip {
        Coding::Zstd
    } else if gzip > 0 {
        Coding::Gzip
    } else {
        Coding::Identity
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(v: &str) -> HeaderValue {
        HeaderValue::from_str(v).unwrap()
    }

    #[test]
    fn q_values_decide_the_coding() {
        let pick = |v: &str| choose(Some(&accept(v)), true, true);
        assert_eq!(pick("gzip, deflate, br, zstd"), Coding::Brotli);
        assert_eq!(pick("gzip"), Coding::Gzip);
        assert_eq!(pick("gzip;q=0, br;q=0"), Coding::Identity);
        assert_eq!(pick("br;q=0, gzip"), Coding::Gzip);
        assert_eq!(pick("gzip;q=1.0, br;q=0.5"), Coding::Gzip);
        assert_eq!(pick("gzip;q=0.5, br;q=0.9"), Coding::Brotli);
        assert_eq!(pick("*"), Coding::Brotli);
        assert_eq!(pick("*;q=0.1, br;q=0"), Coding::Gzip);
        assert_eq!(pick("x-gzip"), Coding::Gzip);
        assert_eq!(pick("GZIP ; Q=0.8"), Coding::Gzip);
        assert_eq!(pick("identity"), Coding::Identity);
        assert_eq!(pick("gzip;q=2, br;q=abc"), Coding::Identity);
        assert_eq!(pick("gzip;q=0.0001"), Coding::Identity);
        assert_eq!(pick(""), Coding::Identity);
        assert_eq!(choose(None, true, true), Coding::Identity);
        assert_eq!(choose(Some(&accept("br")), true, false), Coding::Identity);
        assert_eq!(choose(Some(&accept("br, gzip")), true, false), Coding::Gzip);
    }

    #[test]
    fn zstd_is_chosen_only_where_offered_and_accepted() {
        let once = Offered {
            gzip: true,
            brotli: false,
            zstd: true,
        };
        let pick = |v: &str| choose_among(Some(&accept(v)), once);
        // What browsers send.
        assert_eq!(pick("gzip, deflate, br, zstd"), Coding::Zstd);
        // Safari, and browsers from before zstd.
        assert_eq!(pick("gzip, deflate, br"), Coding::Gzip);
        assert_eq!(pick("zstd;q=0, gzip"), Coding::Gzip);
        assert_eq!(pick("zstd;q=0.5, gzip"), Coding::Gzip);
        assert_eq!(pick("ZSTD"), Coding::Zstd);
        assert_eq!(pick("*"), Coding::Zstd);
        assert_eq!(pick("identity"), Coding::Identity);
        // A stored page offers no zstd: brotli or gzip as before.
        assert_eq!(
            choose(Some(&accept("gzip, deflate, br, zstd")), true, true),
            Coding::Brotli
        );
        assert_eq!(choose(Some(&accept("zstd")), true, true), Coding::Identity);
    }
}
