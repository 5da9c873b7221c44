//! Figures for the admin dashboard, computed on the server in the admin's time zone.

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;

use crate::store::AnalyticsStore;

/// Days shown in the views-per-day chart.
pub const CHART_DAYS: i64 = 30;
/// Articles listed as most viewed.
pub const TOP_ARTICLES: i64 = 5;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figures {
    pub total_views: i64,
    pub views_today: i64,
    /// Oldest first, ending today (local dates).
    pub days: Vec<(NaiveDate, i64)>,
    /// Article slugs with their views over the chart's days, most viewed first.
    pub top_articles: Vec<(String, i64)>,
}

/// The instant `date` begins in `tz` (the first valid local time when midnight is skipped by a
/// daylight-saving change).
pub fn start_of_day(tz: Tz, date: NaiveDate) -> DateTime<Utc> {
    let mut time = date.and_hms_opt(0, 0, 0).unwrap_or_default();
    for _ in 0..4 {
        if let Some(t) = tz.from_local_datetime(&time).earliest() {
            return t.with_timezone(&Utc);
        }
        time += Duration::minutes(30);
    }
    Utc.from_utc_datetime(&time)
}

pub async fn figures(
    store: &dyn AnalyticsStore,
    tz: Tz,
    now: DateTime<Utc>,
) -> Result<Figures, sqlx::Error> {
    let today = now.with_timezone(&tz).date_naive();
    let mut days = Vec::with_capacity(CHART_DAYS as usize);
    for back in (0..CHART_DAYS).rev() {
        let date = today - Duration::days(back);
        let from = start_of_day(tz, date);
        let to = start_of_day(tz, date + Duration::days(1));
        days.push((date, store.between(from, to).await?));
    }
    let views_today = days.last().map(|(_, v)| *v).unwrap_or(0);
    let since = start_of_day(tz, today - Duration::days(CHART_DAYS - 1));
    let top_articles = store
        .top_paths("/article/", since, TOP_ARTICLES)
        .await?
        .into_iter()
        .map(|(path, views)| (path.trim_start_matches("/article/").to_string(), views))
        .collect();
    Ok(Figures {
        total_views: store.total().await?,
        views_today,
        days,
        top_articles,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_starts_at_local_midnight() {
        let date = NaiveDate::from_ymd_opt(2026, 11, 22).unwrap_or_default();
        let tokyo = start_of_day(chrono_tz::Asia::Tokyo, date);
        assert_eq!(tokyo.to_rfc3339(), "2026-11-21T15:00:00+00:00");
        let la = start_of_day(chrono_tz::America::Los_Angeles, date);
        assert_eq!(la.to_rfc3339(), "2026-11-22T08:00:00+00:00");
        let kolkata = start_of_day(chrono_tz::Asia::Kolkata, date);
        assert_eq!(kolkata.to_rfc3339(), "2026-11-21T18:30:00+00:00");
    }

    #[test]
    fn a_midnight_skipped_by_daylight_saving_starts_at_the_first_valid_time() {
        // Santiago moved its clocks from 00:00 to 01:00 on 2026-09-06.
        let date = NaiveDate::from_ymd_opt(2026, 9, 6).unwrap_or_default();
        let t = start_of_day(chrono_tz::America::Santiago, date);
        assert_eq!(
            t.with_timezone(&chrono_tz::America::Santiago).date_naive(),
            date
        );
    }
}
