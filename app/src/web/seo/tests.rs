use super::{sitemap_files, sitemap_part};

fn entries(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("<url><loc>https://a.test/article/{i}</loc></url>\n"))
        .collect()
}

#[test]
fn a_sitemap_that_fits_is_one_file() {
    let (xml, parts) = sitemap_files(&entries(3), 3, "https://a.test");
    assert_eq!(parts, 0);
    assert!(xml.contains("<urlset") && xml.matches("<url>").count() == 3);
    assert_eq!(sitemap_part(&entries(3), 3, 1), None, "no parts to serve");
}

#[test]
fn a_larger_sitemap_is_an_index_of_parts_within_the_limit() {
    let all = entries(7);
    let (xml, parts) = sitemap_files(&all, 3, "https://a.test");
    assert_eq!(parts, 3);
    assert!(xml.contains("<sitemapindex"));
    assert!(!xml.contains("<url>"));
    for n in 1..=3 {
        assert!(xml.contains(&format!("<loc>https://a.test/sitemap-{n}.xml</loc>")));
    }
    let counts: Vec<usize> = (1..=3)
        .map(|n| sitemap_part(&all, 3, n).unwrap().matches("<url>").count())
        .collect();
    assert_eq!(counts, [3, 3, 1], "every URL once, none past the limit");
    assert!(sitemap_part(&all, 3, 3).unwrap().contains("/article/6<"));
    assert_eq!(sitemap_part(&all, 3, 4), None);
    assert_eq!(sitemap_part(&all, 3, 0), None);
}
