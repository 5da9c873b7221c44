//! The HTML part of list email (announcements, the weekly digest): the publication's colours
//! in a single 600 px column that shrinks to a 320 px phone, laid out with tables and inline
//! styles because that is what Gmail, Outlook and Apple Mail all render; no scripts, no
//! remote fonts or stylesheets, pictures only from our own site. Text is escaped by
//! construction (maud), so a title or a first name can never become markup.

use maud::{html, Markup, PreEscaped, DOCTYPE};

const INK: &str = "#2b1a33";
const ACCENT: &str = "#8c1d40";
const GOLD: &str = "#f2b134";
const PAPER: &str = "#f6f1ec";
const FONT: &str = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/// The site an email comes from.
#[derive(Debug, Clone, Copy)]
pub struct Site<'a> {
    pub name: &'a str,
    /// Absolute, without a trailing slash.
    pub url: &'a str,
}

impl Site<'_> {
    /// `path` (a site address such as `/media/…`) made absolute; an absolute URL unchanged.
    pub fn absolute(&self, path: &str) -> String {
        if path.starts_with('/') {
            format!("{}{path}", self.url)
        } else {
            path.to_string()
        }
    }
}

/// A picture in an email: absolute address, drawn size and text alternative.
#[derive(Debug, Clone)]
pub struct Picture {
    pub src: String,
    pub width: u32,
    pub height: u32,
    pub alt: String,
}

/// One thing an email offers: a picture, a line above the title, the title, what it is, and
/// the button that opens it.
#[derive(Debug, Clone)]
pub struct Item {
    pub picture: Option<Picture>,
    pub eyebrow: Option<String>,
    pub title: String,
    pub description: String,
    pub button: String,
    pub href: String,
}

/// A whole email.
pub struct Letter<'a> {
    pub site: Site<'a>,
    /// The line mail programs show after the subject in the inbox.
    pub preheader: &'a str,
    /// The greeting, as text or as a placeholder replaced per recipient (see [`greeting_html`]).
    pub greeting: &'a str,
    pub intro: &'a str,
    pub items: &'a [Item],
    /// Why the reader gets this email.
    pub why: &'a str,
    /// The one-click unsubscribe address (or a placeholder replaced per recipient).
    pub unsubscribe: &'a str,
    /// Where the reader chooses their emails, when they have an account.
    pub manage: Option<&'a str>,
}

/// The greeting for a reader whose first name we may know: "Hi Maya!" or "Hi!".
pub fn greeting(first_name: Option<&str>) -> String {
    match first_name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(name) => format!("Hi {name}!"),
        None => "Hi!".to_string(),
    }
}

/// [`greeting`], escaped for an HTML part.
pub fn greeting_html(first_name: Option<&str>) -> String {
    html! { (greeting(first_name)) }.into_string()
}

fn button(label: &str, href: &str) -> Markup {
    html! {
        table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:16px 0 0" {
            tr {
                td bgcolor=(ACCENT) style={ "border-radius:8px;background:" (ACCENT) } {
                    a href=(href) target="_blank"
                        style={ "display:inline-block;padding:12px 22px;font-family:" (FONT)
                                ";font-size:16px;font-weight:700;line-height:20px;color:#ffffff;\
                                 text-decoration:none;border-radius:8px" } {
                        (label)
                    }
                }
            }
        }
    }
}

fn item(item: &Item) -> Markup {
    html! {
        tr {
            td style="padding:0 24px 28px" {
                @if let Some(p) = &item.picture {
                    a href=(item.href) target="_blank" style="text-decoration:none" {
                        img src=(p.src) width=(p.width) height=(p.height) alt=(p.alt)
                            style={ "display:block;width:100%;max-width:" (p.width)
                                    "px;height:auto;border:0;border-radius:8px;margin:0 auto 14px" };
                    }
                }
                @if let Some(eyebrow) = &item.eyebrow {
                    p style={ "margin:0 0 6px;font-family:" (FONT) ";font-size:13px;font-weight:700;\
                               letter-spacing:0.04em;text-transform:uppercase;color:" (ACCENT) } {
                        (eyebrow)
                    }
                }
                h2 style={ "margin:0;font-family:" (FONT) ";font-size:22px;line-height:28px;color:" (INK) } {
                    a href=(item.href) target="_blank" style={ "color:" (INK) ";text-decoration:none" } {
                        (item.title)
                    }
                }
                @if !item.description.is_empty() {
                    p style={ "margin:8px 0 0;font-family:" (FONT) ";font-size:16px;line-height:24px;color:" (INK) } {
                        (item.description)
                    }
                }
                (button(&item.button, &item.href))
            }
        }
    }
}

/// The email as an HTML document.
pub fn render(letter: &Letter<'_>) -> String {
    let site = letter.site;
    let text = |size: u32, extra: &str| {
        format!(
            "margin:0;font-family:{FONT};font-size:{size}px;line-height:1.5;color:{INK};{extra}"
        )
    };
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="color-scheme" content="light";
                title { (site.name) }
            }
            body style={ "margin:0;padding:0;background:" (PAPER) } {
                // The inbox preview line, not shown in the message itself.
                div style="display:none;max-height:0;overflow:hidden;mso-hide:all" { (letter.preheader) }
                table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"
                    bgcolor=(PAPER) style={ "background:" (PAPER) } {
                    tr {
                        td align="center" style="padding:16px 8px" {
                            table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"
                                style="max-width:600px;background:#ffffff;border-radius:12px" {
                                tr {
                                    td bgcolor=(INK) style={ "padding:18px 24px;border-radius:12px 12px 0 0;background:" (INK) ";border-bottom:4px solid " (GOLD) } {
                                        a href=(site.url) target="_blank"
                                            style={ "font-family:" (FONT) ";font-size:20px;font-weight:800;color:#ffffff;text-decoration:none" } {
                                            (site.name)
                                        }
                                    }
                                }
                                tr {
                                    td style="padding:24px 24px 8px" {
                                        p style=(text(18, "font-weight:700")) { (PreEscaped(letter.greeting)) }
                                        p style=(text(16, "margin-top:8px")) { (letter.intro) }
                                    }
                                }
                                tr { td style="height:16px;line-height:16px;font-size:0" { (PreEscaped("&nbsp;")) } }
                                @for i in letter.items { (item(i)) }
                                tr {
                                    td style={ "padding:16px 24px 24px;border-top:1px solid #eadfd6" } {
                                        p style=(text(13, "color:#5b4a61")) {
                                            (letter.why) " "
                                            @if let Some(manage) = letter.manage {
                                                a href=(manage) target="_blank" style={ "color:" (ACCENT) } { "Choose your emails" }
                                                " · "
                                            }
                                            a href=(letter.unsubscribe) target="_blank" style={ "color:" (ACCENT) } { "Unsubscribe with one click" }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    .into_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter_with(items: &[Item], greeting: &str) -> String {
        render(&Letter {
            site: Site {
                name: "The Agora",
                url: "https://agora.example",
            },
            preheader: "A new issue is out",
            greeting,
            intro: "Read it free.",
            items,
            why: "You asked to hear about the magazine.",
            unsubscribe: "https://agora.example/unsubscribe?token=t",
            manage: None,
        })
    }

    #[test]
    fn text_from_people_is_escaped_everywhere() {
        let items = [Item {
            picture: Some(Picture {
                src: "https://agora.example/media/covers/a.jpg".into(),
                width: 280,
                height: 373,
                alt: "Cover of \"<b>\"".into(),
            }),
            eyebrow: None,
            title: "Votes & <script>alert(1)</script>".into(),
            description: "Rock'n'roll \"politics\"".into(),
            button: "Read the issue".into(),
            href: "https://agora.example/magazine/a?x=1&y=2".into(),
        }];
        let name = greeting_html(Some("<img src=x onerror=alert(1)>"));
        let html = letter_with(&items, &name);
        assert!(!html.contains("<script>") && !html.contains("<img src=x"));
        assert!(html.contains("Votes &amp; &lt;script&gt;"));
        assert!(html.contains("Hi &lt;img src=x onerror=alert(1)&gt;!"));
        assert!(html.contains("href=\"https://agora.example/magazine/a?x=1&amp;y=2\""));
        assert!(html.contains("alt=\"Cover of &quot;&lt;b&gt;&quot;\""));
    }

    #[test]
    fn it_fits_a_phone_and_loads_nothing_from_elsewhere() {
        let html = letter_with(&[], "Hi!");
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("width=device-width"));
        assert!(html.contains("max-width:600px"));
        assert!(!html.contains("<script") && !html.contains("<link") && !html.contains("<style"));
        assert!(html.contains("Unsubscribe with one click"));
    }

    #[test]
    fn greetings() {
        assert_eq!(greeting(Some(" Maya ")), "Hi Maya!");
        assert_eq!(greeting(Some("")), "Hi!");
        assert_eq!(greeting(None), "Hi!");
    }
}
