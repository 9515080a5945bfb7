//! Times written as UTC dates, from the calendar alone: a HAR file's
//! `startedDateTime` (ISO 8601) and AWS SigV4's `X-Amz-Date`. rove needs no
//! time zones, so it carries no date library for these two lines.

/// A UTC date and time to the millisecond.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UtcTime {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub millisecond: u32,
}

impl UtcTime {
    /// The time `millis` milliseconds after 1970-01-01T00:00:00Z (before
    /// it, for a negative count).
    pub fn from_unix_millis(millis: i64) -> UtcTime {
        const DAY: i64 = 86_400_000;
        let (days, rest) = (millis.div_euclid(DAY), millis.rem_euclid(DAY));
        let (year, month, day) = civil_from_days(days);
        // `rest` is below a day's 86 400 000 ms, so each part fits.
        let part = |n: i64| u32::try_from(n).unwrap_or(0);
        UtcTime {
            year,
            month,
            day,
            hour: part(rest / 3_600_000),
            minute: part(rest / 60_000 % 60),
            second: part(rest / 1000 % 60),
            millisecond: part(rest % 1000),
        }
    }

    /// The time `seconds` (with a fraction) after 1970, to the millisecond.
    pub fn from_unix_seconds(seconds: f64) -> UtcTime {
        UtcTime::from_unix_millis((seconds * 1000.0) as i64)
    }

    /// Now, by the system clock (1970 if the clock is before it).
    pub fn now() -> UtcTime {
        let millis = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
            .unwrap_or(0);
        UtcTime::from_unix_millis(millis)
    }

    /// ISO 8601 with milliseconds: `2025-12-01T12:34:56.500Z`.
    pub fn iso8601(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
            self.year, self.month, self.day, self.hour, self.minute, self.second, self.millisecond
        )
    }

    /// ISO 8601's basic form to the second, as AWS SigV4 signs it:
    /// `20150830T123600Z`.
    pub fn iso8601_basic(&self) -> String {
        format!(
            "{:04}{:02}{:02}T{:02}{:02}{:02}Z",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }
}

/// The proleptic Gregorian date `days` after 1970-01-01: counted in 400-year
/// eras (146 097 days each) from 0000-03-01, so that the leap day ends each
/// year of the count.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let shifted = days + 719_468;
    let era = shifted.div_euclid(146_097);
    let of_era = shifted.rem_euclid(146_097);
    let year_of_era = (of_era - of_era / 1_460 + of_era / 36_524 - of_era / 146_096) / 365;
    let day_of_year = of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    // Both are small by construction (1..=31, 1..=12).
    (
        year,
        u32::try_from(month).unwrap_or(1),
        u32::try_from(day).unwrap_or(1),
    )
}

#[cfg(test)]
mod tests {
    use super::UtcTime;

    #[test]
    fn times_are_written_in_utc_in_both_forms() {
        assert_eq!(
            UtcTime::from_unix_millis(0).iso8601(),
            "1970-01-01T00:00:00.000Z"
        );
        assert_eq!(
            UtcTime::from_unix_seconds(1_764_592_496.5).iso8601(),
            "2025-12-01T12:34:56.500Z"
        );
        assert_eq!(
            UtcTime::from_unix_millis(1_440_938_160_000).iso8601_basic(),
            "20150830T123600Z"
        );
        assert_eq!(
            UtcTime::from_unix_millis(0).iso8601_basic(),
            "19700101T000000Z"
        );
    }

    #[test]
    fn leap_days_and_century_years_land_on_their_dates() {
        assert_eq!(
            UtcTime::from_unix_millis(1_709_164_800_000).iso8601_basic(),
            "20240229T000000Z"
        );
        // 2000 is a leap year (divisible by 400), 2100 is not.
        assert_eq!(
            UtcTime::from_unix_millis(951_782_400_000).iso8601_basic(),
            "20000229T000000Z"
        );
        assert_eq!(
            UtcTime::from_unix_millis(4_107_542_400_000).iso8601_basic(),
            "21000301T000000Z"
        );
        assert_eq!(
            UtcTime::from_unix_millis(-1).iso8601(),
            "1969-12-31T23:59:59.999Z"
        );
    }
}
